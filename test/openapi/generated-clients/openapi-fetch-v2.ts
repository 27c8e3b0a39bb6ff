// Every Variant 2 operation through openapi-fetch on openapi-typescript's types of v2.json.
import createClient from 'openapi-fetch';
import type { paths } from './generated/openapi-typescript/v2.js';
import { config, failed, first, ok, report } from './env.js';

const as = (key: string) =>
  createClient<paths>({ baseUrl: config.baseUrl, headers: { authorization: `Bearer ${key}` } });
const api = as(config.apiKey);

const contact = ok(
  await api.POST('/contacts', {
    body: { name: 'Ada', phone: '+4915112345678', tags: ['vip'], custom_fields: { tier: 'gold' } },
  }),
).data;
const id = contact.id;
const fetched = ok(await api.GET('/contacts/{id}', { params: { path: { id } } })).data;
const updated = ok(await api.PUT('/contacts/{id}', { params: { path: { id } }, body: { name: 'Ada L.' } })).data;
const listed = ok(await api.GET('/contacts', { params: { query: { tag: 'vip', page: 1, per_page: 10 } } }));

const text = ok(
  await api.POST('/messages/send', {
    body: { to: contact.phone, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } },
  }),
).data;
const template = ok(
  await api.POST('/messages/send', {
    body: {
      to: contact.phone,
      messaging_account_id: 1,
      type: 'template',
      content: { name: 'welcome', language: 'en', components: [] },
    },
  }),
).data;
const conversations = ok(await api.GET('/conversations', { params: { query: { status: 'open' } } })).data;
const conversation = ok(
  await api.GET('/conversations/{id}', { params: { path: { id: first(conversations).id } } }),
).data;

const campaign = ok(
  await api.POST('/campaigns', {
    body: {
      name: 'Spring',
      messaging_account_id: 1,
      template_name: 'promo',
      segment_id: 2,
      scheduled_at: '2099-01-01T00:00:00Z',
    },
  }),
).data;
const campaigns = ok(await api.GET('/campaigns')).data;
const endpoint = ok(
  await api.POST('/webhooks', {
    body: { url: 'http://127.0.0.1:9/hooks', events: ['message.delivered'], secret: 'whsec_test' },
  }),
).data;
const endpoints = ok(await api.GET('/webhooks')).data;
const account = ok(await api.GET('/account/me')).data;
const deleted = ok(await api.DELETE('/contacts/{id}', { params: { path: { id } } })).data;

// Each error narrowed by its code, its details read as typed.
const [forbiddenStatus, forbidden] = failed(
  await as(config.readOnlyKey).POST('/contacts', { body: { name: 'Bob', phone: '4915100000002' } }),
);
const [planStatus, plan] = failed(
  await as(config.tightKey).POST('/contacts', { body: { name: 'Bob', phone: '4915100000002' } }),
);
const [missingStatus, missing] = failed(await api.GET('/contacts/{id}', { params: { path: { id: 999999 } } }));
const [invalidStatus, invalid] = failed(
  await api.POST('/messages/send', {
    body: { to: contact.phone, messaging_account_id: 999, type: 'text', content: { body: 'Hi' } },
  }),
);
const [phoneStatus, phone] = failed(await api.POST('/contacts', { body: { name: 'Bob', phone: 'abc' } }));
const [largeStatus, large] = failed(
  await api.POST('/contacts', { body: { name: 'x'.repeat(1_100_000), phone: '4915100000002' } }),
);
const [unknownKeyStatus, unknownKey] = failed(await as('sk_test_unknown').GET('/account/me'));

report({
  contact: [id, fetched.name, updated.name, listed.data.map((c) => c.id), listed.meta.total, deleted?.deleted],
  messages: [text.id, text.status, template.id, template.direction, text.messaging_account_id],
  conversation: [conversation.id, conversation.status, conversation.messages.map((m) => [m.id, m.status])],
  campaign: [campaign.id, campaign.status, campaign.sent_count, campaigns.length],
  webhook: [endpoint.id, endpoint.status, endpoints.map((e) => e.events)],
  account: [account.plan, account.scopes?.length],
  errors: {
    forbidden: [
      forbiddenStatus,
      forbidden.error.code,
      forbidden.error.code === 'INSUFFICIENT_PERMISSIONS' ? forbidden.error.details.required_scope : null,
    ],
    plan: [planStatus, plan.error.code === 'PLAN_LIMIT_EXCEEDED' ? plan.error.details.maxContacts : null],
    missing: [
      missingStatus,
      missing.error.code,
      missing.error.code === 'RESOURCE_NOT_FOUND' ? (missing.error.details.allowed_methods ?? null) : null,
    ],
    invalid: [
      invalidStatus,
      invalid.error.code,
      invalid.error.code === 'VALIDATION_ERROR' ? invalid.error.details.messaging_account_id : null,
    ],
    phone: [phoneStatus, phone.error.code, phone.error.code === 'INVALID_PHONE' ? phone.error.details.phone : null],
    large: [largeStatus, large.error.code, large.error.code === 'PAYLOAD_TOO_LARGE' ? large.error.details.body : null],
    unknownKey: [unknownKeyStatus, unknownKey.error.code, unknownKey.error.message],
  },
});
