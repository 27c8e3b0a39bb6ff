// The `data` each event kind carries: one builder per kind, for the mock's own events and emit()'s samples.
// Each gives the type bizmsg/webhooks parses that kind's data into, so the mock and the types agree.
import type { WebhookEventData } from '../../schemas/webhook-event.js';
import type { StoredFailure, StoredCampaign, StoredContact, StoredConversation, StoredMessage } from './records.js';
import { phoneKey } from './store.js';

/** What the mock sends as an event's `data`: the type bizmsg/webhooks reads it as, and a plain object, as the emitter takes it. */
type Sent<T> = T & Record<string, unknown>;

/** The data of every message event: the fields of all five kinds, `from` and `body` for an inbound one. */
type MessageEventData = Sent<WebhookEventData<'message.sent'>> &
  Partial<
    Pick<WebhookEventData<'message.received'>, 'from' | 'body'> &
      Pick<WebhookEventData<'message.read'>, 'delivered_at' | 'read_at'> &
      Pick<WebhookEventData<'message.failed'>, 'failed_at'>
  > & { error?: StoredFailure };

/** Why a message failed when nothing said otherwise (a magic number's fate, `setMessageStatus` without `error`). */
export const DEFAULT_FAILURE: StoredFailure = {
  code: 'UNDELIVERABLE',
  message: 'The message could not be delivered to the recipient.',
};

/** What message events carry: for `message.delivered`, exactly the spec's fields come first. */
export function messageEventData(message: StoredMessage): MessageEventData {
  const inbound =
    message.direction === 'inbound' ? { from: phoneKey(message.from), body: String(message.content.body) } : {};
  return {
    message_id: message.id,
    to: phoneKey(message.to),
    status: message.status,
    ...(message.delivered_at === undefined ? {} : { delivered_at: message.delivered_at }),
    ...(message.read_at === undefined ? {} : { read_at: message.read_at }),
    ...(message.failed_at === undefined ? {} : { failed_at: message.failed_at }),
    ...(message.error === undefined ? {} : { error: message.error }),
    conversation_id: message.conversation_id,
    ...inbound,
  };
}

/** What `conversation.created` and `conversation.closed` carry. */
export function conversationEventData(
  conversation: StoredConversation,
): Sent<WebhookEventData<'conversation.created'>> {
  return { conversation_id: conversation.id, phone: phoneKey(conversation.phone) };
}

/** What `contact.created` carries, and `contact.updated` with the fields that changed. */
export function contactEventData(
  contact: StoredContact,
  changed?: readonly string[],
): Sent<WebhookEventData<'contact.updated'>> {
  return changed === undefined ? { ...contact } : { ...contact, changed: [...changed] };
}

/** What `campaign.completed` carries. */
export function campaignEventData(campaign: StoredCampaign): Sent<WebhookEventData<'campaign.completed'>> {
  return {
    campaign_id: campaign.id,
    name: campaign.name,
    sent_count: campaign.sent_count,
    completed_at: campaign.completed_at,
  };
}
