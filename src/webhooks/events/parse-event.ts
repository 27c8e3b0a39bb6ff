// The typed event of a verified body, or the WebhookVerificationError that says why it is not one.
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
    throw new WebhookVerificationError(
      'malformed_payload',
      `The event timestamp "${timestamp}" is not an ISO 8601 date.`,
    );
  }
  const ageSeconds = (Number(now) - sent) / 1000;
  if (Math.abs(ageSeconds) > maxAgeSeconds) {
    const when = ageSeconds > 0 ? `${Math.round(ageSeconds)} s old` : `${Math.round(-ageSeconds)} s in the future`;
    throw new WebhookVerificationError('stale', `The event is ${when}, outside maxAgeSeconds (${maxAgeSeconds}).`);
  }
}
