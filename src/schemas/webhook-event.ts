// The events the service POSTs, as a union discriminated by `event`.
import * as z from 'zod/mini';
import { RecordSchema } from './common.js';
import type { WebhookEventKind } from './webhook-endpoint.js';

/* @__NO_SIDE_EFFECTS__ */
function eventSchema<K extends WebhookEventKind, D extends z.ZodMiniType>(kind: K, data: D) {
  return z.looseObject({ event: z.literal(kind), timestamp: z.string(), data });
}

/** `data` of `message.delivered`, as the spec gives it. */
const MessageDeliveredDataSchema = /* @__PURE__ */ z.looseObject({
  message_id: z.string(),
  to: z.string(),
  status: z.string(),
  delivered_at: z.string(),
});

/** Any event the service POSTs to a webhook endpoint, by its `event` kind. */
export const WebhookEventSchema = /* @__PURE__ */ z.discriminatedUnion('event', [
  eventSchema('message.received', RecordSchema),
  eventSchema('message.sent', RecordSchema),
  eventSchema('message.delivered', MessageDeliveredDataSchema),
  eventSchema('message.read', RecordSchema),
  eventSchema('message.failed', RecordSchema),
  eventSchema('conversation.created', RecordSchema),
  eventSchema('conversation.closed', RecordSchema),
  eventSchema('contact.created', RecordSchema),
  eventSchema('contact.updated', RecordSchema),
  eventSchema('campaign.completed', RecordSchema),
]);
/** Any event the service POSTs to a webhook endpoint; narrow it with `event`. */
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
/** The event of one kind, e.g. `WebhookEventOf<'message.delivered'>`. */
export type WebhookEventOf<K extends WebhookEventKind> = Extract<WebhookEvent, { event: K }>;
/** A `message.delivered` event. */
export type MessageDeliveredEvent = WebhookEventOf<'message.delivered'>;
