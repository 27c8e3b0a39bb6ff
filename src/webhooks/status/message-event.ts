// What the status tracker reads of a message event, checked by its own small schema: `apply` also
// takes events a caller built, and the tracker needs only the id, the times and a failure's details,
// so it does not refuse an event that lacks fields the typed event data requires (`to`, `status`).
// Every reading of an event's data by the tracker stays in this file.
import * as z from 'zod/mini';
import { issuePath, issueText, reportedIssues } from '../../shared/describe.js';
import type { WebhookEvent } from '../../schemas/webhook-event.js';
import { WebhookVerificationError } from '../errors.js';
import { isoTime } from './iso-time.js';
import { STAMPS, type StatusChange, type StatusError, type TrackedStatus } from './record.js';

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
const ErrorText = /* @__PURE__ */ z.optional(z.string());

/** The fields the tracker needs; the others are kept by the event and ignored here. */
const MessageEventSchema = /* @__PURE__ */ z.looseObject({
  timestamp: z.string(),
  data: z.looseObject({
    message_id: z.string().check(z.minLength(1)),
    to: z.optional(z.string()),
    sent_at: z.optional(z.string()),
    delivered_at: z.optional(z.string()),
    read_at: z.optional(z.string()),
    failed_at: z.optional(z.string()),
    error: z.optional(
      z.union([z.string(), z.looseObject({ code: z.optional(z.union([z.string(), z.number()])), message: ErrorText })]),
    ),
    error_code: z.optional(z.union([z.string(), z.number()])),
    error_message: ErrorText,
    reason: ErrorText,
  }),
});
type MessageEventFields = z.infer<typeof MessageEventSchema>;

/** True for the event kinds a tracker applies (message.sent, delivered, read, failed). */
export function isMessageStatusEvent(event: WebhookEvent): event is MessageStatusEvent {
  return Object.hasOwn(STATUS_OF_KIND, event.event);
}

/**
 * The change a message event brings, with its times from the event: the data's own stamps
 * (`delivered_at`...), the event's `timestamp` for its own step when the data has none.
 * A malformed one is a `WebhookVerificationError` ('malformed_payload').
 */
export function changeOfEvent(event: MessageStatusEvent): StatusChange {
  const status = STATUS_OF_KIND[event.event];
  const { timestamp, data } = checkFields(event);
  const change: StatusChange = { id: data.message_id, status };
  if (data.to !== undefined) change.to = data.to;
  for (const [stepStatus, stamp] of Object.entries(STAMPS) as Array<[TrackedStatus, (typeof STAMPS)[TrackedStatus]]>) {
    const given = data[`${stepStatus}_at`];
    const at = given ?? (stepStatus === status ? timestamp : undefined);
    if (at !== undefined)
      change[stamp] = eventTime(at, event.event, given === undefined ? 'timestamp' : `data.${stepStatus}_at`);
  }
  const error = status === 'failed' ? errorOf(data) : undefined;
  if (error !== undefined) change.error = error;
  return change;
}

function checkFields(event: MessageStatusEvent): MessageEventFields {
  const result = MessageEventSchema.safeParse(event);
  if (result.success) return result.data;
  const issue = reportedIssues(result.error.issues)[0]!;
  throw malformed(event.event, `${issuePath(issue) ?? 'the event'} ${issueText(issue)}`);
}

function eventTime(value: string, kind: string, field: string): string {
  const time = isoTime(value);
  if (time === undefined)
    throw malformed(kind, `${field} ${JSON.stringify(value.slice(0, 40))} is not an ISO 8601 date`);
  return time;
}

/** The failure's details, from whichever fields the event carries them in. */
function errorOf(data: MessageEventFields['data']): StatusError | undefined {
  const given = typeof data.error === 'string' ? { message: data.error } : data.error;
  const code = given?.code ?? data.error_code;
  const message = given?.message ?? data.error_message ?? data.reason;
  if (code === undefined && message === undefined) return undefined;
  return {
    ...(code === undefined ? {} : { code: String(code).slice(0, MAX_ERROR_CHARS) }),
    ...(message === undefined ? {} : { message: message.slice(0, MAX_ERROR_CHARS) }),
  };
}

function malformed(kind: string, why: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'malformed_payload',
    `The ${kind} event cannot be tracked: ${why}. Nothing was applied.`,
  );
}
