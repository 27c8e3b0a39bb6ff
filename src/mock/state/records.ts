// What the mock records, each as a zod schema and its type in one place: the stored resources,
// delivery attempts, e-mails, journal entries and pending work. The control API's document is
// generated from these schemas, so it says exactly what `state()`, `deliveries()` and `requests()` give.
import * as z from 'zod/mini';
import { CAMPAIGN_STATUSES } from '../../schemas/campaign.js';
import { CONVERSATION_STATUSES } from '../../schemas/conversation.js';
import { MESSAGE_STATUSES } from '../../schemas/message.js';
import { WEBHOOK_ENDPOINT_STATUSES, WEBHOOK_EVENT_KINDS } from '../../schemas/webhook-endpoint.js';

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
export type StoredContact = z.infer<typeof StoredContactSchema>;

/** Why a message failed: a code and its words. */
export const MessageErrorSchema = /* @__PURE__ */ z.object({ code: z.string(), message: z.string() });
/** Why a message failed: a code and its words. */
export type MessageError = z.infer<typeof MessageErrorSchema>;

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
  error: z.optional(MessageErrorSchema),
});
/** A message, outbound or inbound. */
export type StoredMessage = z.infer<typeof StoredMessageSchema>;

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
export type StoredConversation = z.infer<typeof StoredConversationSchema>;

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
export type StoredCampaign = z.infer<typeof StoredCampaignSchema>;

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
export type StoredWebhookEndpoint = z.infer<typeof StoredWebhookEndpointSchema>;

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
export type DeliveryAttempt = z.infer<typeof DeliveryAttemptSchema>;

/** A notification e-mail the service sent to the account owner. */
export const SentEmailSchema = /* @__PURE__ */ z.object({
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  at: VirtualTime,
});
/** A notification e-mail the service sent to the account owner. */
export type SentEmail = z.infer<typeof SentEmailSchema>;

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
/** One request to the service, as the journal shows it. */
export type RecordedRequest = z.infer<typeof RecordedRequestSchema>;

/** Work the mock's clock will do when it gets there: a message status change, a retry, a campaign. */
export const PendingTaskSchema = /* @__PURE__ */ z.object({ at: VirtualTime, what: z.string() });
/** Work the mock's clock will do when it gets there. */
export type PendingTask = z.infer<typeof PendingTaskSchema>;
