// The events the service POSTs, as a union discriminated by `event`.
import * as z from 'zod/mini';
import { expected, IdSchema, openEnum } from './common.js';
import { ContactSchema } from './contact.js';
import { MESSAGE_STATUSES } from './message.js';
import type { WebhookEventKind } from './webhook-endpoint.js';

/* @__NO_SIDE_EFFECTS__ */
function eventSchema<K extends WebhookEventKind, D extends z.ZodMiniType>(kind: K, data: D) {
  return z.looseObject({ event: z.literal(kind), timestamp: z.string(), data });
}

/**
 * What every message event's `data` carries: the message's id and status, and the customer's number
 * as digits (`to` of an outbound message). The spec shows only `message.delivered`'s; for the other
 * kinds these are bizmsg's guess (what its mock sends), optional in the types
 * (`contract/event-fields.ts` marks each field).
 */
const MessageEventDataSchema = /* @__PURE__ */ z.looseObject({
  message_id: expected(z.string()),
  /** The recipient's number, digits only (`4915112345678`). */
  to: expected(z.string()),
  status: expected(openEnum(MESSAGE_STATUSES)),
  conversation_id: z.optional(IdSchema),
});

/** `data` of `message.received`: an inbound message, `from` the customer (digits), `to` the business. */
const MessageReceivedDataSchema = /* @__PURE__ */ z.extend(MessageEventDataSchema, {
  to: z.optional(z.string()),
  from: expected(z.string()),
  body: z.optional(z.string()),
});
/** `data` of `message.delivered`, as the spec gives it: its four fields are always there. */
const MessageDeliveredDataSchema = /* @__PURE__ */ z.extend(MessageEventDataSchema, {
  message_id: z.string(),
  to: z.string(),
  status: openEnum(MESSAGE_STATUSES),
  delivered_at: z.string(),
});
/** `data` of `message.read`. */
const MessageReadDataSchema = /* @__PURE__ */ z.extend(MessageEventDataSchema, {
  delivered_at: z.optional(z.string()),
  read_at: z.optional(z.string()),
});
/**
 * `data` of `message.failed`; `error` says why (bizmsg's mock sends `{ code, message }`; a code
 * given as a number, or words alone as a string, are kept as they come).
 */
const MessageFailedDataSchema = /* @__PURE__ */ z.extend(MessageEventDataSchema, {
  failed_at: z.optional(z.string()),
  error: z.optional(
    z.union([
      z.looseObject({ code: z.optional(z.union([z.string(), z.number()])), message: z.optional(z.string()) }),
      z.string(),
    ]),
  ),
});

/** `data` of `conversation.created` and `conversation.closed`: its id, and the customer's number (digits). */
const ConversationEventDataSchema = /* @__PURE__ */ z.looseObject({
  conversation_id: expected(IdSchema),
  phone: z.optional(z.string()),
});

/** `data` of `contact.created`: the contact (as `contacts.get` gives it, every field a guess here). */
const ContactEventDataSchema = /* @__PURE__ */ z.extend(ContactSchema, {
  id: expected(IdSchema),
  phone: z.optional(z.string()),
});
/** `data` of `contact.updated`: the contact, and the names of the fields that changed. */
const ContactUpdatedDataSchema = /* @__PURE__ */ z.extend(ContactEventDataSchema, {
  changed: z.optional(z.array(z.string())),
});

/** `data` of `campaign.completed`: its id, name, how many messages it sent, and when it finished. */
const CampaignCompletedDataSchema = /* @__PURE__ */ z.looseObject({
  campaign_id: expected(IdSchema),
  name: z.optional(z.string()),
  sent_count: z.optional(z.int()),
  completed_at: z.optional(z.string()),
});

/**
 * Any event the service POSTs to a webhook endpoint, by its `event` kind; unknown fields are kept.
 * The receivers do not refuse a delivery that does not fit it (they report the drift): it is the
 * shape bizmsg expects, and what its mock sends.
 */
export const WebhookEventSchema = /* @__PURE__ */ z.discriminatedUnion('event', [
  eventSchema('message.received', MessageReceivedDataSchema),
  eventSchema('message.sent', MessageEventDataSchema),
  eventSchema('message.delivered', MessageDeliveredDataSchema),
  eventSchema('message.read', MessageReadDataSchema),
  eventSchema('message.failed', MessageFailedDataSchema),
  eventSchema('conversation.created', ConversationEventDataSchema),
  eventSchema('conversation.closed', ConversationEventDataSchema),
  eventSchema('contact.created', ContactEventDataSchema),
  eventSchema('contact.updated', ContactUpdatedDataSchema),
  eventSchema('campaign.completed', CampaignCompletedDataSchema),
]);
/**
 * Any event the service POSTs to a webhook endpoint; narrow it with `event`. Its `data` is given
 * as the service sent it: a field bizmsg guessed may be missing or of another type (`onDrift`
 * says which).
 */
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
/** The event of one kind, e.g. `WebhookEventOf<'message.delivered'>`. */
export type WebhookEventOf<K extends WebhookEventKind> = Extract<WebhookEvent, { event: K }>;
/** The `data` of an event of one kind, e.g. `WebhookEventData<'message.read'>`. */
export type WebhookEventData<K extends WebhookEventKind> = WebhookEventOf<K>['data'];
/** A `message.delivered` event. */
export type MessageDeliveredEvent = WebhookEventOf<'message.delivered'>;
