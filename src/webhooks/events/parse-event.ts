// The typed event of a verified body, or the WebhookVerificationError that says why it is not one.
import { REDELIVERY_SPAN_MS, SIGNATURE_HEADER_NAME } from '../../contract/webhooks.js';
import { issuePath, issueText, reportedIssues } from '../../shared/describe.js';
import { WEBHOOK_EVENT_KINDS } from '../../schemas/webhook-endpoint.js';
import { WebhookEventSchema, type WebhookEvent } from '../../schemas/webhook-event.js';
import { WebhookVerificationError } from '../errors.js';
import { signatureBytes } from '../signature/inputs.js';
import type { ParseWebhookOptions } from './parse-options.js';

const decoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true });
const KNOWN_KINDS: ReadonlySet<string> = /* @__PURE__ */ new Set(WEBHOOK_EVENT_KINDS);

/** Throws the WebhookVerificationError that says why `signature` was not accepted, unless it was. */
export function assertSigned(signature: unknown, valid: boolean): void {
  if (valid) return;
  if (signature === undefined || signature === null || signature === '') {
    throw new WebhookVerificationError('missing_signature', `The ${SIGNATURE_HEADER_NAME} header is missing.`);
  }
  if (signatureBytes(signature) === undefined) {
    throw new WebhookVerificationError(
      'malformed_signature',
      `The ${SIGNATURE_HEADER_NAME} header is not a SHA-256 hex digest (bare or sha256=<hex>).`,
    );
  }
  throw new WebhookVerificationError('mismatch', 'The signature does not match the body under the given secret.');
}

/** The typed event of a verified body; throws WebhookVerificationError when it is not one, or is stale. */
export function parseEvent(body: string | Uint8Array, options: ParseWebhookOptions): WebhookEvent {
  const json = readJson(body);
  const kind = (json as { event?: unknown } | null)?.event;
  if (typeof kind === 'string' && !KNOWN_KINDS.has(kind)) {
    throw new WebhookVerificationError('unknown_event', `Unknown event kind "${kind}".`);
  }
  // The input in each issue tells a missing field ("is required") from a wrong one.
  const result = WebhookEventSchema.safeParse(json, { reportInput: true });
  if (!result.success) {
    const issue = reportedIssues(result.error.issues)[0]!;
    const path = issuePath(issue);
    throw new WebhookVerificationError(
      'malformed_payload',
      `The event does not have the expected shape${path === undefined ? '' : ` at ${path}`}: ${issueText(issue)}.`,
    );
  }
  if (options.maxAgeSeconds !== undefined)
    assertFresh(result.data.timestamp, { seconds: options.maxAgeSeconds }, options.now);
  return result.data;
}

function readJson(body: string | Uint8Array): unknown {
  try {
    return JSON.parse(typeof body === 'string' ? body : decoder.decode(body));
  } catch {
    throw new WebhookVerificationError('malformed_payload', 'The body is not valid UTF-8 JSON.');
  }
}

/**
 * How an event's age is checked: within `seconds` of now either way (`maxAgeSeconds`), or, as the
 * receivers do by default (`RECEIVER_MAX_AGE`), only that it is not older.
 */
export interface AgeCheck {
  readonly seconds: number;
  /** Only the past: a timestamp ahead of this clock passes (the mock's virtual clock runs ahead once advanced). */
  readonly pastOnly?: boolean;
}

/** The receivers' default: no delivery older than the service's retries (~26.6 h) and some slack, in whole hours: 27 h. */
export const RECEIVER_MAX_AGE: AgeCheck = { seconds: Math.ceil(REDELIVERY_SPAN_MS / 3_600_000) * 3600, pastOnly: true };

/** Throws WebhookVerificationError `stale` unless `timestamp` passes `check` at `now`. */
export function assertFresh(timestamp: string, check: AgeCheck, now: Date | number = Date.now()): void {
  const sent = Date.parse(timestamp);
  if (Number.isNaN(sent)) {
    throw new WebhookVerificationError(
      'malformed_payload',
      `The event timestamp "${timestamp}" is not an ISO 8601 date.`,
    );
  }
  const ageSeconds = (Number(now) - sent) / 1000;
  if ((check.pastOnly === true ? ageSeconds : Math.abs(ageSeconds)) <= check.seconds) return;
  const when = ageSeconds > 0 ? `${Math.round(ageSeconds)} s old` : `${Math.round(-ageSeconds)} s in the future`;
  throw new WebhookVerificationError(
    'stale',
    check.pastOnly === true
      ? `The event is ${when}, older than the receivers' default maxAgeSeconds (${check.seconds}: ${check.seconds / 3600} h, the service's retries and some slack); set maxAgeSeconds, or false to turn the check off.`
      : `The event is ${when}, outside maxAgeSeconds (${check.seconds}).`,
  );
}
