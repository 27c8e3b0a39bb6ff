import { type VARIANT1_ENDPOINTS, type VARIANT2_ENDPOINTS } from '../../src/contract/endpoints.js';
import { MAGIC_NUMBERS, type MockService } from '../../src/mock/index.js';

/** A request to make of the mock, relative to its base URL. */
export interface CaseRequest {
  method: string;
  /** Path and query, with ids filled in. */
  target: string;
  body?: unknown;
}

/** How to make each endpoint succeed and fail in each of its own ways. */
export interface EndpointFixture {
  /** Makes what the request needs exist (a message, a conversation). */
  prepare?: (mock: MockService) => void;
  /** A request that succeeds. */
  ok: CaseRequest;
  /** A request naming a resource that does not exist (RESOURCE_NOT_FOUND). */
  missing?: CaseRequest;
  /** A request with a malformed phone number (INVALID_PHONE). */
  badPhone?: CaseRequest;
  /** A request naming a template that does not exist (TEMPLATE_NOT_FOUND). */
  badTemplate?: CaseRequest;
  /** A request the upstream channel rejects (MESSAGING_ERROR). */
  upstreamFailure?: CaseRequest;
}

const PHONE = '4915112345678';
/** A number no seeded contact has: the mock keeps one contact per number. */
const NEW_PHONE = '4915100000099';
const inbound = (mock: MockService) => void mock.receiveMessage({ from: PHONE, body: 'Hello' });
const later = () => new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');

const getContact = {
  ok: { method: 'GET', target: '/contacts/1' },
  missing: { method: 'GET', target: '/contacts/999999' },
};
const updateContact = {
  ok: { method: 'PUT', target: '/contacts/1', body: { name: 'Ada L.', tags: ['vip'] } },
  missing: { method: 'PUT', target: '/contacts/999999', body: { name: 'Ada L.' } },
  badPhone: { method: 'PUT', target: '/contacts/1', body: { phone: 'abc' } },
};
const getAccount = { ok: { method: 'GET', target: '/account/me' } };

/** Variant 1, by operationId. */
export const VARIANT1_FIXTURES: Record<keyof typeof VARIANT1_ENDPOINTS, EndpointFixture> = {
  sendMessage: {
    ok: { method: 'POST', target: '/messages/send', body: { to: PHONE, message: 'Your order has shipped.' } },
    badPhone: { method: 'POST', target: '/messages/send', body: { to: 'abc', message: 'x' } },
    upstreamFailure: {
      method: 'POST',
      target: '/messages/send',
      body: { to: MAGIC_NUMBERS.messagingError, message: 'x' },
    },
  },
  sendTemplateMessage: {
    ok: {
      method: 'POST',
      target: '/messages/template',
      body: { to: PHONE, name: 'welcome', language: 'en', components: [] },
    },
    badPhone: {
      method: 'POST',
      target: '/messages/template',
      body: { to: '+1', name: 'welcome', language: 'en', components: [] },
    },
    badTemplate: {
      method: 'POST',
      target: '/messages/template',
      body: { to: PHONE, name: 'nope', language: 'en', components: [] },
    },
    upstreamFailure: {
      method: 'POST',
      target: '/messages/template',
      body: { to: MAGIC_NUMBERS.messagingError, name: 'welcome', language: 'en', components: [] },
    },
  },
  getMessageStatus: {
    prepare: inbound,
    ok: { method: 'GET', target: '/messages/msg_1/status' },
    missing: { method: 'GET', target: '/messages/msg_999999/status' },
  },
  listContacts: { ok: { method: 'GET', target: '/contacts?page=1&per_page=1' } },
  createContact: {
    ok: {
      method: 'POST',
      target: '/contacts/create',
      body: { phone: NEW_PHONE, name: 'Ada', tags: ['vip'], email: 'ada@example.com' },
    },
    badPhone: { method: 'POST', target: '/contacts/create', body: { phone: '12-34', name: 'Ada' } },
  },
  getContact,
  updateContact,
  triggerAutomation: {
    ok: { method: 'POST', target: '/automations/trigger', body: { automation_id: 'welcome-flow', to: PHONE } },
    missing: { method: 'POST', target: '/automations/trigger', body: { automation_id: 'nope' } },
  },
  getAccount,
};

const template = (to: string, name = 'welcome') => ({
  to,
  messaging_account_id: 1,
  type: 'template',
  content: { name, language: 'en', components: [] },
});

/** Variant 2, by operationId. */
export const VARIANT2_FIXTURES: Record<keyof typeof VARIANT2_ENDPOINTS, EndpointFixture> = {
  listContacts: { ok: { method: 'GET', target: '/contacts?search=ada&per_page=5' } },
  createContact: {
    ok: {
      method: 'POST',
      target: '/contacts',
      body: { name: 'Ada', phone: `+${NEW_PHONE}`, tags: ['vip'], custom_fields: { tier: 'gold' } },
    },
    badPhone: { method: 'POST', target: '/contacts', body: { name: 'Ada', phone: 'not a phone' } },
  },
  getContact,
  updateContact,
  deleteContact: {
    ok: { method: 'DELETE', target: '/contacts/1' },
    missing: { method: 'DELETE', target: '/contacts/999999' },
  },
  sendMessage: {
    ok: {
      method: 'POST',
      target: '/messages/send',
      body: { to: PHONE, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } },
    },
    badPhone: {
      method: 'POST',
      target: '/messages/send',
      body: { to: '123', messaging_account_id: 1, type: 'text', content: { body: 'Hi' } },
    },
    badTemplate: { method: 'POST', target: '/messages/send', body: template(PHONE, 'nope') },
    upstreamFailure: { method: 'POST', target: '/messages/send', body: template(MAGIC_NUMBERS.messagingError) },
  },
  listConversations: { prepare: inbound, ok: { method: 'GET', target: '/conversations?status=open&page=1' } },
  getConversation: {
    prepare: inbound,
    ok: { method: 'GET', target: '/conversations/1' },
    missing: { method: 'GET', target: '/conversations/999999' },
  },
  listCampaigns: { ok: { method: 'GET', target: '/campaigns' } },
  createCampaign: {
    ok: {
      method: 'POST',
      target: '/campaigns',
      body: { name: 'Spring', messaging_account_id: 1, template_name: 'promo', segment_id: 2, scheduled_at: later() },
    },
    badTemplate: {
      method: 'POST',
      target: '/campaigns',
      body: { name: 'Spring', messaging_account_id: 1, template_name: 'nope', segment_id: 2, scheduled_at: later() },
    },
  },
  listWebhooks: { ok: { method: 'GET', target: '/webhooks' } },
  createWebhook: {
    // Loopback on the discard port: a delivery attempt fails at once and never leaves the machine.
    ok: {
      method: 'POST',
      target: '/webhooks',
      body: { url: 'http://127.0.0.1:9/hooks', events: ['message.delivered'], secret: 'whsec_test' },
    },
  },
  getAccount,
};
