import { describeIssue } from '../core/describe-issue.js';
import { WEBHOOK_EVENT_KINDS } from '../schemas/webhook-endpoint.js';
import { WebhookEventSchema, type WebhookEvent } from '../schemas/webhook-event.js';
import { WebhookVerificationError } from './errors.js';
import { describeValue, payloadInput, secretList, signatureBytes, type WebhookPayload, type WebhookSecret } from './inputs.js';
import { verifyWebhook } from './verify.js';
import { verifyWebhookAsync } from './verify-async.js';

/** Options of `parseWebhook`. */
export interface ParseWebhookOptions {
  /**
   * Reject events whose `timestamp` is further than this from `now` (replay protection).
   * Off by default: the service retries a delivery for about 26.6 hours (1 m + 5 m + 30 m +
   * 2 h + 24 h), so a shorter window rejects genuine retries.
   */
  maxAgeSeconds?: number;
  /** The current time, for `maxAgeSeconds`: a valid Date or milliseconds since the epoch (default: the clock). */
  now?: Date | number;
}

const decoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true });
const KNOWN_KINDS: ReadonlySet<string> = /* @__PURE__ */ new Set(WEBHOOK_EVENT_KINDS);

/** Verifies a delivery, then parses it into a typed event; throws `WebhookVerificationError`. */
export function parseWebhook(
  payload: WebhookPayload,
  signature: unknown,
  secret: WebhookSecret,
  options: ParseWebhookOptions = {},
): WebhookEvent {
  const body = checkedInputs(payload, secret, options, 'parseWebhook');
  assertSigned(signature, verifyWebhook(body, signature, secret));
  return parseEvent(body, options);
}

/** `parseWebhook` on Web Crypto, for edge runtimes. */
export async function parseWebhookAsync(
  payload: WebhookPayload,
  signature: unknown,
  secret: WebhookSecret,
  options: ParseWebhookOptions = {},
): Promise<WebhookEvent> {
  const body = checkedInputs(payload, secret, options, 'parseWebhookAsync');
  assertSigned(signature, await verifyWebhookAsync(body, signature, secret));
  return parseEvent(body, options);
}

/** Checks every argument before anything about the delivery is judged: a bad one is the caller's mistake. */
function checkedInputs(payload: unknown, secret: unknown, options: unknown, caller: string) {
  const body = payloadInput(payload, caller);
  secretList(secret, caller);
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${caller}: options must be an object ({ maxAgeSeconds?, now? }), got ${describeValue(options)}.`);
  }
  checkMaxAgeSeconds((options as ParseWebhookOptions).maxAgeSeconds, caller);
  checkNow((options as ParseWebhookOptions).now, caller);
  return body;
}

/** Throws a TypeError unless `maxAgeSeconds` is absent or a positive number. */
export function checkMaxAgeSeconds(maxAgeSeconds: unknown, caller: string): void {
  if (maxAgeSeconds !== undefined && !(typeof maxAgeSeconds === 'number' && maxAgeSeconds > 0)) {
    throw new TypeError(`${caller}: maxAgeSeconds must be a positive number of seconds, got ${describeValue(maxAgeSeconds)}.`);
  }
}

/** Throws a TypeError unless `now` is absent, a valid Date or a finite number: an unusable clock must not let stale events through. */
function checkNow(now: unknown, caller: string): void {
  if (now === undefined) return;
  const valid = typeof now === 'number' ? Number.isFinite(now) : now instanceof Date && !Number.isNaN(now.getTime());
  if (!valid) {
    throw new TypeError(`${caller}: now must be a valid Date or a number of milliseconds since the epoch (Date.now()), got ${describeValue(now)}.`);
  }
}

function assertSigned(signature: unknown, valid: boolean): void {
  if (valid) return;
  if (signature === undefined || signature === null || signature === '') {
    throw new WebhookVerificationError('missing_signature', 'The X-Service-Signature header is missing.');
  }
  if (signatureBytes(signature) === undefined) {
    throw new WebhookVerificationError(
      'malformed_signature',
      'The X-Service-Signature header is not a SHA-256 hex digest (bare or sha256=<hex>).',
    );
  }
  throw new WebhookVerificationError('mismatch', 'The signature does not match the body under the given secret.');
}

function parseEvent(body: string | Uint8Array, options: ParseWebhookOptions): WebhookEvent {
  const json = readJson(body);
  const kind = (json as { event?: unknown } | null)?.event;
  if (typeof kind === 'string' && !KNOWN_KINDS.has(kind)) {
    throw new WebhookVerificationError('unknown_event', `Unknown event kind "${kind}".`);
  }
  const result = WebhookEventSchema.safeParse(json);
  if (!result.success) {
    const issue = describeIssue(result.error.issues[0]!);
    const where = issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    throw new WebhookVerificationError('malformed_payload', `The event does not have the expected shape${where}: ${issue.message}.`);
  }
  if (options.maxAgeSeconds !== undefined) assertFresh(result.data.timestamp, options.maxAgeSeconds, options.now);
  return result.data;
}

function readJson(body: string | Uint8Array): unknown {
  try {
    return JSON.parse(typeof body === 'string' ? body : decoder.decode(body));
  } catch {
    throw new WebhookVerificationError('malformed_payload', 'The body is not valid UTF-8 JSON.');
  }
}

function assertFresh(timestamp: string, maxAgeSeconds: number, now: Date | number = Date.now()): void {
  const sent = Date.parse(timestamp);
  if (Number.isNaN(sent)) {
    throw new WebhookVerificationError('malformed_payload', `The event timestamp "${timestamp}" is not an ISO 8601 date.`);
  }
  const ageSeconds = (Number(now) - sent) / 1000;
  if (Math.abs(ageSeconds) > maxAgeSeconds) {
    const when = ageSeconds > 0 ? `${Math.round(ageSeconds)} s old` : `${Math.round(-ageSeconds)} s in the future`;
    throw new WebhookVerificationError('stale', `The event is ${when}, outside maxAgeSeconds (${maxAgeSeconds}).`);
  }
}
