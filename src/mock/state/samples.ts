// A realistic `data` for each event kind, for emit(): from what the store holds where it can be.
import type { WebhookEventKind } from '../../schemas/event-kinds.js';
import { BUSINESS_NUMBER } from '../options.js';
import {
  campaignEventData,
  contactEventData,
  conversationEventData,
  DEFAULT_FAILURE,
  messageEventData,
} from './event-data.js';
import type { StoredMessage } from './records.js';
import type { MockStore } from './store.js';

/** A customer's number, in samples the store has nothing for. */
const CUSTOMER = '+15550100001';

/**
 * The `data` of a `kind` event: built from the newest stored message, conversation, contact or
 * campaign it fits (a `message.read` sample of the newest outbound message, read now), or, where
 * the store has none, from a sample whose ids are 0 (`msg_0`). The store does not change.
 */
export function sampleData(kind: WebhookEventKind, store: MockStore, now: string): Record<string, unknown> {
  switch (kind) {
    case 'message.received':
      return messageEventData(newestMessage(store, 'inbound') ?? sampleMessage('inbound', now));
    case 'message.sent':
      return messageEventData({ ...outbound(store, now), status: 'sent' });
    case 'message.delivered':
      return messageEventData({ ...outbound(store, now), status: 'delivered', delivered_at: now });
    case 'message.read':
      // Read after it was delivered, as the lifecycle goes.
      return messageEventData({
        ...outbound(store, now),
        status: 'read',
        delivered_at: newestMessage(store, 'outbound')?.delivered_at ?? now,
        read_at: now,
      });
    case 'message.failed':
      return messageEventData({ ...outbound(store, now), status: 'failed', failed_at: now, error: DEFAULT_FAILURE });
    case 'conversation.created':
    case 'conversation.closed':
      return conversationEventData(
        store.conversations.at(-1) ?? {
          id: 0,
          phone: CUSTOMER,
          status: kind === 'conversation.closed' ? 'closed' : 'open',
          assigned_to: null,
          created_at: now,
          updated_at: now,
          message_ids: [],
        },
      );
    case 'contact.created':
    case 'contact.updated':
      return contactEventData(
        store.contacts.at(-1) ?? {
          id: 0,
          name: 'Ada Lovelace',
          phone: CUSTOMER,
          tags: [],
          custom_fields: {},
          created_at: now,
          updated_at: now,
        },
        kind === 'contact.updated' ? ['name'] : undefined,
      );
    case 'campaign.completed': {
      const campaign = store.campaigns.at(-1);
      return campaignEventData(
        campaign === undefined
          ? {
              id: 0,
              name: 'Sample campaign',
              messaging_account_id: 1,
              template_name: 'promo',
              segment_id: 1,
              scheduled_at: now,
              status: 'completed',
              sent_count: 0,
              created_at: now,
              completed_at: now,
            }
          : { ...campaign, status: 'completed', completed_at: campaign.completed_at ?? now },
      );
    }
  }
}

function outbound(store: MockStore, now: string): StoredMessage {
  const {
    delivered_at: _d,
    read_at: _r,
    failed_at: _f,
    error: _e,
    ...message
  } = newestMessage(store, 'outbound') ?? sampleMessage('outbound', now);
  return message;
}

function newestMessage(store: MockStore, direction: StoredMessage['direction']): StoredMessage | undefined {
  let newest: StoredMessage | undefined;
  for (const message of store.messages.values()) if (message.direction === direction) newest = message;
  return newest;
}

function sampleMessage(direction: StoredMessage['direction'], now: string): StoredMessage {
  const inbound = direction === 'inbound';
  return {
    id: 'msg_0',
    direction,
    from: inbound ? CUSTOMER : BUSINESS_NUMBER,
    to: inbound ? BUSINESS_NUMBER : CUSTOMER,
    type: 'text',
    content: { body: inbound ? 'Hi, is my order on its way?' : 'Your order has shipped.' },
    status: inbound ? 'received' : 'sent',
    conversation_id: 0,
    messaging_account_id: 1,
    created_at: now,
  };
}
