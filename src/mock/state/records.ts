// What the mock records, each as a zod schema and its type in one place: the stored resources,
// delivery attempts, e-mails, journal entries and pending work. The control API's document is
// generated from these schemas, so it says exactly what `state()`, `deliveries()` and `requests()` give.
import * as z from 'zod/mini';
import { CAMPAIGN_STATUSES, type CampaignStatus } from '../../schemas/campaign.js';
import { CONVERSATION_STATUSES, type ConversationStatus } from '../../schemas/conversation.js';
import { MESSAGE_STATUSES, type MessageStatus } from '../../schemas/message.js';
import { WEBHOOK_ENDPOINT_STATUSES, type WebhookEndpointStatus } from '../../schemas/webhook-endpoint.js';
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from '../../schemas/event-kinds.js';

const Headers = /* @__PURE__ */ z.record(z.string(), z.string());
/** Virtual time, in ms since the epoch. */
const VirtualTime = /* @__PURE__ */ z.number();

/** A contact as the mock keeps it. */
export const StoredContactSchema = /* @__PURE__ */ z.object({
  id: z.int(),
  name: z.string(),
  phone: z.string(),
  email: z.optional(z.string()),
  tags: z.array(z.string()),
  custom_fields: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
});
/** A contact as the mock keeps it. */
export interface StoredContact {
  /** The contact's id, from 1. */
  id: number;
  /** The contact's name (empty when it was created without one). */
  name: string;
  /** The contact's phone number, international (`+14155550100`). */
  phone: string;
  /** The contact's email address, when it has one. */
  email?: string | undefined;
  /** The contact's tags. */
  tags: string[];
  /** The contact's custom fields, by name. */
  custom_fields: Record<string, unknown>;
  /** When the contact was created, ISO 8601 on the mock's clock. */
  created_at: string;
  /** When the contact was last changed, ISO 8601 on the mock's clock. */
  updated_at: string;
}

/** Why a message failed: a code and its words. */
const StoredFailureSchema = /* @__PURE__ */ z.object({ code: z.string(), message: z.string() });

/** A message, outbound or inbound. */
export const StoredMessageSchema = /* @__PURE__ */ z.object({
  id: z.string(),
  direction: z.enum(['outbound', 'inbound']),
  from: z.string(),
  to: z.string(),
  type: z.enum(['text', 'template']),
  content: z.record(z.string(), z.unknown()),
  status: z.enum(MESSAGE_STATUSES),
  conversation_id: z.int(),
  messaging_account_id: z.int(),
  campaign_id: z.optional(z.int()),
  created_at: z.string(),
  delivered_at: z.optional(z.string()),
  read_at: z.optional(z.string()),
  failed_at: z.optional(z.string()),
  /** Why a failed message failed, as its `message.failed` event carries it. */
  error: z.optional(StoredFailureSchema),
});
/** A message, outbound or inbound. */
export interface StoredMessage {
  /** The message's id. */
  id: string;
  /** `outbound`: sent through the API; `inbound`: from a customer. */
  direction: 'outbound' | 'inbound';
  /** The sender's phone number, international. */
  from: string;
  /** The recipient's phone number, international. */
  to: string;
  /** What the message holds: a text or a template. */
  type: 'text' | 'template';
  /** The message's content as it was sent (a text's `body`, a template's name, language and components). */
  content: Record<string, unknown>;
  /** Where the message is in its lifecycle. */
  status: MessageStatus;
  /** The id of the conversation the message belongs to. */
  conversation_id: number;
  /** The id of the messaging account the message went through. */
  messaging_account_id: number;
  /** The id of the campaign that sent it, when one did. */
  campaign_id?: number | undefined;
  /** When the message was created, ISO 8601 on the mock's clock. */
  created_at: string;
  /** When it was delivered, once it was. */
  delivered_at?: string | undefined;
  /** When it was read, once it was. */
  read_at?: string | undefined;
  /** When it failed, if it did. */
  failed_at?: string | undefined;
  /** Why a failed message failed, as its `message.failed` event carries it. */
  error?:
    | {
        /** The failure's code, as `UNDELIVERABLE`. */
        code: string;
        /** The failure in words. */
        message: string;
      }
    | undefined;
}

/** Why a stored message failed: a code and its words. */
export type StoredFailure = NonNullable<StoredMessage['error']>;

/** A conversation with one phone number. */
export const StoredConversationSchema = /* @__PURE__ */ z.object({
  id: z.int(),
  phone: z.string(),
  status: z.enum(CONVERSATION_STATUSES),
  assigned_to: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  message_ids: z.array(z.string()),
});
/** A conversation with one phone number. */
export interface StoredConversation {
  /** The conversation's id, from 1. */
  id: number;
  /** The customer's phone number, international. */
  phone: string;
  /** Whether the conversation is open, closed or pending. */
  status: ConversationStatus;
  /** Who the conversation is assigned to; null when no one. */
  assigned_to: string | null;
  /** When the conversation was created, ISO 8601 on the mock's clock. */
  created_at: string;
  /** When it last changed, ISO 8601 on the mock's clock. */
  updated_at: string;
  /** The ids of its messages, oldest first. */
  message_ids: string[];
}

/** A campaign and how far it got. */
export const StoredCampaignSchema = /* @__PURE__ */ z.object({
  id: z.int(),
  name: z.string(),
  messaging_account_id: z.int(),
  template_name: z.string(),
  segment_id: z.int(),
  scheduled_at: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  sent_count: z.int(),
  created_at: z.string(),
  completed_at: z.optional(z.string()),
});
/** A campaign and how far it got. */
export interface StoredCampaign {
  /** The campaign's id, from 1. */
  id: number;
  /** The campaign's name. */
  name: string;
  /** The id of the messaging account it sends from. */
  messaging_account_id: number;
  /** The name of the template it sends. */
  template_name: string;
  /** The id of the contact segment it goes to. */
  segment_id: number;
  /** When it is scheduled to start, ISO 8601. */
  scheduled_at: string;
  /** Where the campaign is in its lifecycle. */
  status: CampaignStatus;
  /** How many messages it has sent so far. */
  sent_count: number;
  /** When the campaign was created, ISO 8601 on the mock's clock. */
  created_at: string;
  /** When it completed, once it did. */
  completed_at?: string | undefined;
}

/** A registered webhook endpoint, with its secret. */
export const StoredWebhookEndpointSchema = /* @__PURE__ */ z.object({
  id: z.int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_KINDS)),
  secret: z.string(),
  status: z.enum(WEBHOOK_ENDPOINT_STATUSES),
  created_at: z.string(),
  disabled_at: z.optional(z.string()),
});
/** A registered webhook endpoint, with its secret. */
export interface StoredWebhookEndpoint {
  /** The endpoint's id, from 1. */
  id: number;
  /** The URL events are POSTed to. */
  url: string;
  /** The event kinds it receives. */
  events: WebhookEventKind[];
  /** The secret its deliveries are signed with. */
  secret: string;
  /** `active`, or `disabled` after its deliveries kept failing. */
  status: WebhookEndpointStatus;
  /** When it was registered, ISO 8601 on the mock's clock. */
  created_at: string;
  /** When it was disabled, if it was. */
  disabled_at?: string | undefined;
}

/** One attempt to deliver one event to one endpoint: what was sent, what came back. */
export const DeliveryAttemptSchema = /* @__PURE__ */ z.object({
  id: z.int(),
  endpointId: z.int(),
  url: z.string(),
  event: z.enum(WEBHOOK_EVENT_KINDS),
  attempt: z
    .int()
    .check(
      z.minimum(1),
      z.describe(
        'Numbered from 1: 1 for the first delivery, 2 to 6 for the five retries (a redelivery keeps the number of the attempt it repeats).',
      ),
    ),
  /**
   * The endpoint's HTTP status (a 3xx is a failure: redirects are not followed), or how the
   * attempt failed without one (`redirect`: a browser hid a redirect's status).
   */
  status: z.union([z.int(), z.enum(['network_error', 'timeout', 'redirect'])]),
  ok: z.boolean(),
  at: VirtualTime,
  /** Real time the attempt took. */
  durationMs: z.number(),
  /** The headers (signature included) and the exact body the signature covers. */
  request: z.object({ headers: Headers, body: z.string() }),
  /** What came back, the body cut to 4 KiB; null when nothing did (a network error, a time-out). */
  response: z.nullable(z.object({ status: z.int(), headers: Headers, body: z.string() })),
  /** When the next retry of this delivery is due, when one is scheduled. */
  nextRetryAt: z.nullable(VirtualTime),
  /** The id of the attempt this one delivers again (a redelivery asked for; it is not retried). */
  redeliveryOf: z.nullable(z.int()),
  /** Why the attempt got no answer (`connect ECONNREFUSED 127.0.0.1:9`), when it got none. */
  error: z.nullable(z.string()),
});
/** One attempt to deliver one event to one endpoint: what was sent, what came back. */
export interface DeliveryAttempt {
  /** The attempt's id, from 1. */
  id: number;
  /** The id of the endpoint delivered to. */
  endpointId: number;
  /** The URL delivered to. */
  url: string;
  /** The kind of event delivered. */
  event: WebhookEventKind;
  /** Numbered from 1: 1 for the first delivery, 2 to 6 for the five retries (a redelivery keeps the number of the attempt it repeats). */
  attempt: number;
  /**
   * The endpoint's HTTP status (a 3xx is a failure: redirects are not followed), or how the
   * attempt failed without one (`redirect`: a browser hid a redirect's status).
   */
  status: number | 'network_error' | 'timeout' | 'redirect';
  /** True when the endpoint answered 2xx. */
  ok: boolean;
  /** When the attempt was made, in ms since the epoch on the mock's clock. */
  at: number;
  /** Real time the attempt took. */
  durationMs: number;
  /** The headers (signature included) and the exact body the signature covers. */
  request: {
    /** The request's headers, the signature's included. */
    headers: Record<string, string>;
    /** The exact body the signature covers. */
    body: string;
  };
  /** What came back, the body cut to 4 KiB; null when nothing did (a network error, a time-out). */
  response: {
    /** The answer's HTTP status. */
    status: number;
    /** The answer's headers. */
    headers: Record<string, string>;
    /** The answer's body, cut to 4 KiB. */
    body: string;
  } | null;
  /** When the next retry of this delivery is due, when one is scheduled. */
  nextRetryAt: number | null;
  /** The id of the attempt this one delivers again (a redelivery asked for; it is not retried). */
  redeliveryOf: number | null;
  /** Why the attempt got no answer (`connect ECONNREFUSED 127.0.0.1:9`), when it got none. */
  error: string | null;
}

/** A notification e-mail the service sent to the account owner. */
export const SentEmailSchema = /* @__PURE__ */ z.object({
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  at: VirtualTime,
});
/** A notification e-mail the service sent to the account owner. */
export interface SentEmail {
  /** The address it went to. */
  to: string;
  /** Its subject line. */
  subject: string;
  /** Its text. */
  body: string;
  /** When it was sent, in ms since the epoch on the mock's clock. */
  at: number;
}

/** One request to the service, as the journal shows it: API keys replaced by `[REDACTED]`. */
export const RecordedRequestSchema = /* @__PURE__ */ z.object({
  id: z.int(),
  at: VirtualTime,
  method: z.string(),
  /** The path below the base URL (`/contacts/7`); null for a request outside it (a base URL without `/api/v1`). */
  path: z.nullable(z.string()),
  /** The whole path and query as requested (`/api/v1/contacts?page=2`). */
  url: z.string(),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  headers: Headers,
  /** The body: its JSON value, else its text (cut to 64 KiB); null when there was none or the mock never read it. */
  body: z.unknown(),
  /** The answer's status; 0 when an injected network error cut the connection. */
  status: z.int(),
  /** The error code of an error answer. */
  code: z.nullable(z.string()),
  /** Real time the mock took to answer. */
  durationMs: z.number(),
  /** The answer's headers and body (its JSON value, cut to 16 KiB); null with a network error. */
  response: z.nullable(z.object({ headers: Headers, body: z.unknown() })),
});
/** One request to the service, as the journal shows it: API keys replaced by `[REDACTED]`. */
export interface RecordedRequest {
  /** The request's id in the journal, from 1. */
  id: number;
  /** When it came, in ms since the epoch on the mock's clock. */
  at: number;
  /** The HTTP method. */
  method: string;
  /** The path below the base URL (`/contacts/7`); null for a request outside it (a base URL without `/api/v1`). */
  path: string | null;
  /** The whole path and query as requested (`/api/v1/contacts?page=2`). */
  url: string;
  /** The query parameters; a repeated one as an array. */
  query: Record<string, string | string[]>;
  /** The request's headers, API keys replaced by `[REDACTED]`. */
  headers: Record<string, string>;
  /** The body: its JSON value, else its text (cut to 64 KiB); null when there was none or the mock never read it. */
  body: unknown;
  /** The answer's status; 0 when an injected network error cut the connection. */
  status: number;
  /** The error code of an error answer. */
  code: string | null;
  /** Real time the mock took to answer. */
  durationMs: number;
  /** The answer's headers and body (its JSON value, cut to 16 KiB); null with a network error. */
  response: {
    /** The answer's headers. */
    headers: Record<string, string>;
    /** The answer's body: its JSON value, cut to 16 KiB. */
    body: unknown;
  } | null;
}

/** Work the mock's clock will do when it gets there: a message status change, a retry, a campaign. */
export const PendingTaskSchema = /* @__PURE__ */ z.object({ at: VirtualTime, what: z.string() });
/** Work the mock's clock will do when it gets there. */
export interface PendingTask {
  /** When it is due, in ms since the epoch on the mock's clock. */
  at: number;
  /** What it will do, in words (`message msg_1 → delivered`). */
  what: string;
}
