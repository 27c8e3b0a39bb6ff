// Every Variant 1 operation through the SDK @hey-api/openapi-ts generates from v1.json.
import { createClient, createConfig } from './generated/hey-api/v1/client/index.js';
import {
  createContact,
  getAccount,
  getContact,
  getMessageStatus,
  listContacts,
  sendMessage,
  sendTemplateMessage,
  triggerAutomation,
  updateContact,
} from './generated/hey-api/v1/sdk.gen.js';
import { config, failed, ok, report } from './env.js';

const as = (key: string) => createClient(createConfig({ baseUrl: config.baseUrl, auth: key }));
const client = as(config.apiKey);
const to = '4915112345678';

const sent = ok(await sendMessage({ client, body: { to, message: 'Your order has shipped.' } })).data;
const template = ok(
  await sendTemplateMessage({ client, body: { to, name: 'welcome', language: 'en', components: [] } }),
).data;
const status = ok(await getMessageStatus({ client, path: { id: sent.message_id } })).data;

const contact = ok(
  await createContact({ client, body: { phone: to, name: 'Ada', tags: ['vip'], custom_fields: { a: 1 } } }),
).data;
const id = contact.id;
const fetched = ok(await getContact({ client, path: { id } })).data;
const updated = ok(await updateContact({ client, path: { id }, body: { name: 'Ada L.' } })).data;
const listed = ok(await listContacts({ client, query: { page: 1, per_page: 10 } }));
const run = ok(await triggerAutomation({ client, body: { automation_id: 'welcome-flow', to } })).data;
const account = ok(await getAccount({ client })).data;

// Each error narrowed by its code, its details read as typed.
const bob = { name: 'Bob', phone: '4915100000002' };
const [forbiddenStatus, forbidden] = failed(await createContact({ client: as(config.readOnlyKey), body: bob }));
const [planStatus, plan] = failed(await createContact({ client: as(config.tightKey), body: bob }));
const [missingStatus, missing] = failed(await getContact({ client, path: { id: 999999 } }));
const [invalidStatus, invalid] = failed(await sendMessage({ client, body: { to, message: '' } }));
const [phoneStatus, phone] = failed(await sendMessage({ client, body: { to: 'abc', message: 'Hi' } }));
const [largeStatus, large] = failed(
  await createContact({ client, body: { name: 'x'.repeat(1_100_000), phone: '4915100000002' } }),
);
const [unknownKeyStatus, unknownKey] = failed(await getAccount({ client: as('sk_test_unknown') }));

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
