// The event kinds the service sends, apart from the schemas: what a receiver imports of them carries
// no zod (figure 1: createWebhookHandler bundled alone).

/** The event kinds the service sends (spec section 6). */
export const WEBHOOK_EVENT_KINDS = [
  'message.received',
  'message.sent',
  'message.delivered',
  'message.read',
  'message.failed',
  'conversation.created',
  'conversation.closed',
  'contact.created',
  'contact.updated',
  'campaign.completed',
] as const;
/** One event kind. */
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];
