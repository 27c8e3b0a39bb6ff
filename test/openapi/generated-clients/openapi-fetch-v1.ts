// Every Variant 1 operation through openapi-fetch on openapi-typescript's types of v1.json.
import createClient from 'openapi-fetch';
import type { paths } from './generated/openapi-typescript/v1.js';
import { config, failed, ok, report } from './env.js';

const as = (key: string) => createClient<paths>({ baseUrl: config.baseUrl, headers: { 'x-api-key': key } });
const api = as(config.apiKey);
const to = '4915112345678';

const sent = ok(await api.POST('/messages/send', { body: { to, message: 'Your order has shipped.' } })).data;
const template = ok(
  await api.POST('/messages/template', { body: { to, name: 'welcome', language: 'en', components: [] } }),
).data;
const status = ok(await api.GET('/messages/{id}/status', { params: { path: { id: sent.message_id } } })).data;

const contact = ok(
  await api.POST('/contacts/create', { body: { phone: to, name: 'Ada', tags: ['vip'], custom_fields: { a: 1 } } }),
).data;
const id = contact.id;
const fetched = ok(await api.GET('/contacts/{id}', { params: { path: { id } } })).data;
const updated = ok(await api.PUT('/contacts/{id}', { params: { path: { id } }, body: { name: 'Ada L.' } })).data;
const listed = ok(await api.GET('/contacts', { params: { query: { page: 1, per_page: 10 } } }));
const run = ok(await api.POST('/automations/trigger', { body: { automation_id: 'welcome-flow', to } })).data;
const account = ok(await api.GET('/account/me')).data;

// Each error narrowed by its code, its details read as typed.
const bob = { name: 'Bob', phone: '4915100000002' };
const [forbiddenStatus, forbidden] = failed(await as(config.readOnlyKey).POST('/contacts/create', { body: bob }));
const [planStatus, plan] = failed(await as(config.tightKey).POST('/contacts/create', { body: bob }));
const [missingStatus, missing] = failed(await api.GET('/contacts/{id}', { params: { path: { id: 999999 } } }));
const [invalidStatus, invalid] = failed(await api.POST('/messages/send', { body: { to, message: '' } }));
const [phoneStatus, phone] = failed(await api.POST('/messages/send', { body: { to: 'abc', message: 'Hi' } }));
const [largeStatus, large] = failed(
  await api.POST('/contacts/create', { body: { name: 'x'.repeat(1_100_000), phone: '4915100000002' } }),
);
const [unknownKeyStatus, unknownKey] = failed(await as('sk_test_unknown').GET('/account/me'));

report({
  contact: [id, contact.custom_fields, fetched.name, updated.name, listed.data.map((c) => c.id), listed.meta.total],
  messages: [sent.message_id, sent.status, template.message_id, status.message_id, status.status],
  automation: [run.automation_id, run.status],
  account: [account.plan, account.scopes?.length],
  errors: {
    success: [forbidden.success, unknownKey.success],
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
      invalid.error.code === 'VALIDATION_ERROR' ? invalid.error.details.message : null,
    ],
    phone: [phoneStatus, phone.error.code, phone.error.code === 'INVALID_PHONE' ? phone.error.details.to : null],
    large: [largeStatus, large.error.code, large.error.code === 'PAYLOAD_TOO_LARGE' ? large.error.details.body : null],
    unknownKey: [unknownKeyStatus, unknownKey.error.code, unknownKey.error.message],
  },
});
