// The event of a verified body, as the service sent it, or the WebhookVerificationError that says
// why it is none; how it differs from the shape bizmsg expects goes to a drift handler.
import { compareShape } from '../../contract/drift.js';
import type { DriftReport } from '../../contract/drift-report.js';
import { EVENT_SHAPES } from '../../contract/event-shapes.js';
import type { Shape } from '../../contract/drift.js';
import { SIGNATURE_HEADER_NAME } from '../../contract/webhooks.js';
import { isRecord } from '../../shared/guards.js';
import { isIsoTimestamp, readTimestamp } from '../../shared/timestamp.js';
import type { WebhookEventKind } from '../../schemas/event-kinds.js';
import type { WebhookEvent } from '../../schemas/webhook-event.js';
import { WebhookVerificationError } from '../errors.js';
import { signatureBytes } from '../signature/inputs.js';

const decoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true });

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

/** How a verified body is read: its age checked (unless undefined), its drift reported (unless undefined). */
export interface EventReading {
  readonly age?: AgeCheck | undefined;
  readonly now?: Date | number | undefined;
  readonly drift?: ((report: DriftReport) => void) | undefined;
}

/**
 * The event of a verified body, as the service sent it: any JSON object with a string `event` and
 * an object `data`, of a kind bizmsg knows or not (whatever `data` holds: its differences from
 * what bizmsg expects go to `drift`). Throws WebhookVerificationError for a body that is no event
 * (`malformed_payload`) or is too old (`stale`); a timestamp that cannot be read skips the age check.
 */
export function readEvent(body: string | Uint8Array, { age, now, drift }: EventReading): WebhookEvent {
  const event = readJson(typeof body === 'string' ? body : decode(body));
  if (!isRecord(event) || typeof event.event !== 'string' || !isRecord(event.data)) {
    throw new WebhookVerificationError(
      'malformed_payload',
      'The body is not an event: a JSON object with a string `event` and an object `data`.',
    );
  }
  const sent = readTimestamp(event.timestamp);
  if (age !== undefined && sent !== undefined) assertFresh(sent, age, now);
  if (drift !== undefined && isKnownKind(event.event)) drift(driftOf(event, event.event, EVENT_SHAPES[event.event]));
  // Typed as the union of the kinds bizmsg knows, though it holds what the service sent (an unknown kind, a field missing or of another type).
  return event as unknown as WebhookEvent;
}

/** True for an event kind bizmsg knows (one of `WEBHOOK_EVENT_KINDS`, each with its shape). */
export function isKnownKind(kind: string): kind is WebhookEventKind {
  return Object.hasOwn(EVENT_SHAPES, kind);
}

/** How an event of a known kind differs from its schema; a `timestamp` that is text but no ISO 8601 time is reported as such. */
function driftOf(event: Record<string, unknown>, kind: string, shape: Shape): DriftReport {
  const { missing, unexpected, mismatched } = compareShape(shape, event);
  if (
    typeof event.timestamp === 'string' &&
    !isIsoTimestamp(event.timestamp) &&
    !mismatched.some(({ path }) => path === 'timestamp')
  )
    mismatched.push({ path: 'timestamp', expected: 'date-time', received: 'string' });
  return { source: 'webhook', operation: kind, missing, unexpected, mismatched };
}

function decode(body: Uint8Array): string {
  try {
    return decoder.decode(body);
  } catch {
    throw notJson();
  }
}

/**
 * The JSON value of the body. A `__proto__` key (however it is escaped) is dropped, as a parser
 * that copies the object would drop it, so that no handler merging the data changes a prototype.
 */
function readJson(text: string): unknown {
  try {
    return text.includes('__proto__') || text.includes('\\u')
      ? JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value))
      : JSON.parse(text);
  } catch {
    throw notJson();
  }
}

function notJson(): WebhookVerificationError {
  return new WebhookVerificationError('malformed_payload', 'The body is not valid UTF-8 JSON.');
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

/** The receivers' default: no delivery older than the service's retries (~26.6 h) and some slack, in whole hours: 27 h (a literal, held to REDELIVERY_SPAN_MS by test/webhooks/parse.test.ts). */
export const RECEIVER_MAX_AGE: AgeCheck = { seconds: 97_200, pastOnly: true };

/** Throws WebhookVerificationError `stale` unless an event sent at `sent` (ms since the epoch) passes `check` at `now`. */
function assertFresh(sent: number, check: AgeCheck, now: Date | number = Date.now()): void {
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
