import type { WebhookEventData, WebhookEventKind } from '../../src/webhooks/index.js';

const AT = '2026-11-21T10:00:00Z';

/** A realistic `data` of each event kind, as the service (and the mock) sends it. */
export const EVENT_DATA: { [K in WebhookEventKind]: WebhookEventData<K> } = {
  'message.received': {
    message_id: 'msg_2',
    to: '15550100000',
    status: 'received',
    conversation_id: 1,
    from: '4915112345678',
    body: 'Hello?',
  },
  'message.sent': { message_id: 'msg_1', to: '4915112345678', status: 'sent', conversation_id: 1 },
  'message.delivered': {
    message_id: 'msg_1',
    to: '4915112345678',
    status: 'delivered',
    delivered_at: AT,
    conversation_id: 1,
  },
  'message.read': {
    message_id: 'msg_1',
    to: '4915112345678',
    status: 'read',
    delivered_at: AT,
    read_at: AT,
    conversation_id: 1,
  },
  'message.failed': { message_id: 'msg_1', to: '15550000001', status: 'failed', failed_at: AT, conversation_id: 1 },
  'conversation.created': { conversation_id: 1, phone: '4915112345678' },
  'conversation.closed': { conversation_id: 1, phone: '4915112345678' },
  'contact.created': {
    id: 1,
    name: 'Ada',
    phone: '+4915112345678',
    tags: [],
    custom_fields: {},
    created_at: AT,
    updated_at: AT,
  },
  'contact.updated': {
    id: 1,
    name: 'Ada L.',
    phone: '+4915112345678',
    tags: ['vip'],
    custom_fields: {},
    created_at: AT,
    updated_at: AT,
    changed: ['name', 'tags'],
  },
  'campaign.completed': { campaign_id: 1, name: 'Spring', sent_count: 2, completed_at: AT },
};
