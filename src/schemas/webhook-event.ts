// The events the service POSTs, as a union discriminated by `event`.
import * as z from 'zod/mini';
import { expected, IdSchema, openEnum, type OpenEnum, int } from './common.js';
import { ContactSchema, type Contact } from './contact.js';
import { MESSAGE_STATUSES, type MessageStatus } from './message.js';
import type { WebhookEventKind } from './event-kinds.js';

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
  sent_count: z.optional(int()),
  completed_at: z.optional(z.string()),
});

/**
 * Any event the service POSTs to a webhook endpoint, by its `event` kind; unknown fields are kept.
 * The one source of parsing: the interfaces below are held to it (test/types/events.test-d.ts).
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
 * What every message event's `data` carries (and all `message.sent`'s does): the message's id and
 * status, and the customer's number as digits. The spec shows none of it but for `message.delivered`.
 */
export interface MessageEventData {
  /** The message's id, as `send` gave it (guessed: may be missing). */
  message_id?: string | undefined;
  /** The recipient's number, digits only (`4915112345678`) (guessed: may be missing). */
  to?: string | undefined;
  /** The message's status: `sent`, `delivered`, `read`, `failed`, `received`, or a newer value (guessed: may be missing). */
  status?: OpenEnum<MessageStatus> | undefined;
  /** The id of the conversation the message belongs to (guessed: may be missing). */
  conversation_id?: string | number | undefined;
}

/** `data` of `message.received`: an inbound message, `from` the customer, `to` the business (digits). */
export interface MessageReceivedData extends MessageEventData {
  /** The business number the customer wrote to, digits only (guessed: may be missing). */
  to?: string | undefined;
  /** The customer's number, digits only (`4915112345678`) (guessed: may be missing). */
  from?: string | undefined;
  /** The text the customer wrote (guessed: may be missing). */
  body?: string | undefined;
}

/** `data` of `message.delivered`, as the spec shows it: its four fields are always there. */
export interface MessageDeliveredData extends MessageEventData {
  /** The message's id, as `send` gave it. */
  message_id: string;
  /** The recipient's number, digits only (`4915112345678`). */
  to: string;
  /** The message's status, `delivered` (an open enum: a newer value is kept). */
  status: OpenEnum<MessageStatus>;
  /** When the message was delivered, ISO 8601. */
  delivered_at: string;
}

/** `data` of `message.read`. */
export interface MessageReadData extends MessageEventData {
  /** When the message was delivered, ISO 8601 (guessed: may be missing). */
  delivered_at?: string | undefined;
  /** When the recipient read the message, ISO 8601 (guessed: may be missing). */
  read_at?: string | undefined;
}

/** Why a message failed, as `message.failed`'s `error` gives it (as bizmsg's mock sends it). */
export interface MessageFailure {
  /** The service's or channel's code, e.g. `UNDELIVERABLE`, a number kept as it came (guessed: may be missing). */
  code?: string | number | undefined;
  /** Its words (guessed: may be missing). */
  message?: string | undefined;
}

/** `data` of `message.failed`; `error` says why. */
export interface MessageFailedData extends MessageEventData {
  /** When the message failed, ISO 8601 (guessed: may be missing). */
  failed_at?: string | undefined;
  /** Why it failed: `{ code, message }`, or words alone as a string (guessed: may be missing). */
  error?: MessageFailure | string | undefined;
}

/** `data` of `conversation.created` and `conversation.closed`. */
export interface ConversationEventData {
  /** The conversation's id (guessed: may be missing). */
  conversation_id?: string | number | undefined;
  /** The customer's number, digits only (`4915112345678`) (guessed: may be missing). */
  phone?: string | undefined;
}

/** `data` of `contact.created`: the {@link Contact}, as `contacts.get` gives it; here every field is a guess. */
export interface ContactEventData {
  /** The contact's id (guessed: may be missing). */
  id?: Contact['id'] | undefined;
  /** The contact's name, when it has one (guessed: may be missing). */
  name?: Contact['name'];
  /** The contact's phone number, as the service wrote it (guessed: may be missing). */
  phone?: Contact['phone'] | undefined;
  /** The contact's email address, when it has one (guessed: may be missing). */
  email?: Contact['email'];
  /** The contact's tags (guessed: may be missing). */
  tags?: Contact['tags'];
  /** The contact's custom fields, by name (guessed: may be missing). */
  custom_fields?: Contact['custom_fields'];
  /** When the contact was created, as the service wrote the time (guessed: may be missing). */
  created_at?: Contact['created_at'];
  /** When the contact was last changed, as the service wrote the time (guessed: may be missing). */
  updated_at?: Contact['updated_at'];
}

/** `data` of `contact.updated`: the contact, and the names of the fields that changed. */
export interface ContactUpdatedData extends ContactEventData {
  /** The names of the fields the update changed (guessed: may be missing). */
  changed?: string[] | undefined;
}

/** `data` of `campaign.completed`. */
export interface CampaignCompletedData {
  /** The campaign's id (guessed: may be missing). */
  campaign_id?: string | number | undefined;
  /** The campaign's name (guessed: may be missing). */
  name?: string | undefined;
  /** How many messages the campaign sent (guessed: may be missing). */
  sent_count?: number | undefined;
  /** When the campaign finished, ISO 8601 (guessed: may be missing). */
  completed_at?: string | undefined;
}

/** A `message.received` event: a customer wrote to the business. */
export interface MessageReceivedEvent {
  /** The event's kind, `'message.received'`. */
  event: 'message.received';
  /** When the service sent the event, ISO 8601. */
  timestamp: string;
  /** What the event is about. */
  data: MessageReceivedData;
}

/** A `message.sent` event: a message left for its recipient. */
export interface MessageSentEvent {
  /** The event's kind, `'message.sent'`. */
  event: 'message.sent';
  /** When the service sent the event, ISO 8601. */
  timestamp: string;
  /** What the event is about. */
  data: MessageEventData;
}

/** A `message.delivered` event: a message reached its recipient's device. */
export interface MessageDeliveredEvent {
  /** The event's kind, `'message.delivered'`. */
  event: 'message.delivered';
  /** When the service sent the event, ISO 8601. */
  timestamp: string;
  /** What the event is about. */
  data: MessageDeliveredData;
}

/** A `message.read` event: the recipient read a message. */
export interface MessageReadEvent {
  /** The event's kind, `'message.read'`. */
  event: 'message.read';
  /** When the service sent the event, ISO 8601. */
  timestamp: string;
  /** What the event is about. */
  data: MessageReadData;
}

/** A `message.failed` event: a message could not be delivered. */
export interface MessageFailedEvent {
  /** The event's kind, `'message.failed'`. */
  event: 'message.failed';
  /** When the service sent the event, ISO 8601. */
  timestamp: string;
  /** What the event is about. */
  data: MessageFailedData;
}

/** A `conversation.created` event: a conversation began. */
export interface ConversationCreatedEvent {
  /** The event's kind, `'conversation.created'`. */
  event: 'conversation.created';
  /** When the service sent the event, ISO 8601. */
  timestamp: string;
  /** What the event is about. */
  data: ConversationEventData;
}

/** A `conversation.closed` event: a conversation was closed. */
export interface ConversationClosedEvent {
  /** The event's kind, `'conversation.closed'`. */
  event: 'conversation.closed';
  /** When the service sent the event, ISO 8601. */
  timestamp: string;
  /** What the event is about. */
  data: ConversationEventData;
}

/** A `contact.created` event: a contact was created. */
export interface ContactCreatedEvent {
  /** The event's kind, `'contact.created'`. */
  event: 'contact.created';
  /** When the service sent the event, ISO 8601. */
  timestamp: string;
  /** What the event is about. */
  data: ContactEventData;
}

/** A `contact.updated` event: a contact was changed. */
export interface ContactUpdatedEvent {
  /** The event's kind, `'contact.updated'`. */
  event: 'contact.updated';
  /** When the service sent the event, ISO 8601. */
  timestamp: string;
  /** What the event is about. */
  data: ContactUpdatedData;
}

/** A `campaign.completed` event: a campaign sent all its messages. */
export interface CampaignCompletedEvent {
  /** The event's kind, `'campaign.completed'`. */
  event: 'campaign.completed';
  /** When the service sent the event, ISO 8601. */
  timestamp: string;
  /** What the event is about. */
  data: CampaignCompletedData;
}

/**
 * Any event the service POSTs to a webhook endpoint; narrow it with `event`. Its `data` is given
 * as the service sent it: a field bizmsg guessed may be missing or of another type (`onDrift`
 * says which). Fields this version does not know are kept on the object at run time, out of the
 * types (reach one with a cast: `(event.data as Record<string, unknown>).later_field`), and so is
 * an event of a kind it does not know: `parseWebhook` returns it, typed as this union.
 */
export type WebhookEvent =
  | MessageReceivedEvent
  | MessageSentEvent
  | MessageDeliveredEvent
  | MessageReadEvent
  | MessageFailedEvent
  | ConversationCreatedEvent
  | ConversationClosedEvent
  | ContactCreatedEvent
  | ContactUpdatedEvent
  | CampaignCompletedEvent;
/** The event of one kind, e.g. `WebhookEventOf<'message.delivered'>` (a `MessageDeliveredEvent`). */
export type WebhookEventOf<K extends WebhookEventKind> = Extract<WebhookEvent, { event: K }>;
/** The `data` of an event of one kind, e.g. `WebhookEventData<'message.read'>` (a `MessageReadData`). */
export type WebhookEventData<K extends WebhookEventKind> = WebhookEventOf<K>['data'];
