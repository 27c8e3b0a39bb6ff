// What the status tracker reads of a message event. The event is as the service sent it, so each
// field is read only where it has a type the tracker can use, and the rest is left alone: the id
// from `message_id` else `id`, the status from the kind, the times from the kind's `*_at` field
// else the event's `timestamp` (ISO 8601 or since the epoch), a failure's details from whichever
// field carries them. Every reading of an event's data by the tracker stays in this file.
import { isRecord } from '../../shared/guards.js';
import type { WebhookEvent } from '../../schemas/webhook-event.js';
import { isoTime } from './iso-time.js';
import { STAMPS, type StatusChange, type StatusFailure, type TrackedStatus } from './record.js';

/** The event kinds that move a message's status, and the status each one reports. */
const STATUS_OF_KIND = {
  'message.sent': 'sent',
  'message.delivered': 'delivered',
  'message.read': 'read',
  'message.failed': 'failed',
} as const satisfies Partial<Record<WebhookEvent['event'], TrackedStatus>>;

/** A message event: one of the kinds a tracker applies. */
export type MessageStatusEvent = Extract<WebhookEvent, { event: keyof typeof STATUS_OF_KIND }>;

/** Longest error text a record keeps of a failure event. */
const MAX_ERROR_CHARS = 1000;

/** True for the event kinds a tracker applies (message.sent, delivered, read, failed). */
export function isMessageStatusEvent(event: WebhookEvent): event is MessageStatusEvent {
  return Object.hasOwn(STATUS_OF_KIND, event.event);
}

/**
 * The change a message event brings, or undefined when it names no message (no `message_id`,
 * no `id`): the status its kind reports, whatever its `status` says; each step's time from the
 * data's own stamp (`delivered_at`...), else the event's `timestamp` for its own step.
 */
export function changeOfEvent(event: MessageStatusEvent): StatusChange | undefined {
  const status = STATUS_OF_KIND[event.event];
  const data: Record<string, unknown> = isRecord(event.data) ? event.data : {};
  const id = textOf(data.message_id) ?? textOf(data.id);
  if (id === undefined) return undefined;
  const change: StatusChange = { id, status };
  const to = textOf(data.to);
  if (to !== undefined) change.to = to;
  for (const [step, stamp] of Object.entries(STAMPS) as Array<[TrackedStatus, (typeof STAMPS)[TrackedStatus]]>) {
    const at = isoTime(data[`${step}_at`]) ?? (step === status ? isoTime(event.timestamp) : undefined);
    if (at !== undefined) change[stamp] = at;
  }
  const error = status === 'failed' ? errorOf(data) : undefined;
  if (error !== undefined) change.error = error;
  return change;
}

/** A non-empty string, or an integer as its digits (an id or a number sent as a JSON number). */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  return Number.isSafeInteger(value) ? String(value) : undefined;
}

/**
 * The failure's details, from whichever fields the event carries them in: `error` (text, or
 * `{ code, message }`), the first of `errors` (`{ code, title }`, as WhatsApp sends), or
 * `error_code`, `error_message` and `reason`.
 */
function errorOf(data: Record<string, unknown>): StatusFailure | undefined {
  const first: unknown = Array.isArray(data.errors) ? data.errors[0] : undefined;
  const given: Record<string, unknown> =
    typeof data.error === 'string'
      ? { message: data.error }
      : isRecord(data.error)
        ? data.error
        : isRecord(first)
          ? first
          : {};
  const code = textOf(given.code) ?? textOf(data.error_code);
  const message = [given.message, given.title, given.detail, data.error_message, data.reason].find(
    (text): text is string => typeof text === 'string',
  );
  if (code === undefined && message === undefined) return undefined;
  return {
    ...(code === undefined ? {} : { code: code.slice(0, MAX_ERROR_CHARS) }),
    ...(message === undefined ? {} : { message: message.slice(0, MAX_ERROR_CHARS) }),
  };
}
