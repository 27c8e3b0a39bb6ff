// Every Variant 2 operation through the SDK @hey-api/openapi-ts generates from v2.json.
import { createClient, createConfig } from './generated/hey-api/v2/client/index.js';
import {
  createCampaign,
  createContact,
  createWebhook,
  deleteContact,
  getAccount,
  getContact,
  getConversation,
  listCampaigns,
  listContacts,
  listConversations,
  listWebhooks,
  sendMessage,
  updateContact,
} from './generated/hey-api/v2/sdk.gen.js';
import { config, failed, first, ok, report } from './env.js';

const as = (key: string) => createClient(createConfig({ baseUrl: config.baseUrl, auth: key }));
const client = as(config.apiKey);

const contact = ok(
  await createContact({
    client,
    body: { name: 'Ada', phone: '+4915112345678', tags: ['vip'], custom_fields: { tier: 'gold' } },
  }),
).data;
const id = contact.id;
const fetched = ok(await getContact({ client, path: { id } })).data;
const updated = ok(await updateContact({ client, path: { id }, body: { name: 'Ada L.' } })).data;
const listed = ok(await listContacts({ client, query: { tag: 'vip', page: 1, per_page: 10 } }));

const text = ok(
  await sendMessage({
    client,
    body: { to: contact.phone, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } },
  }),
).data;
const template = ok(
  await sendMessage({
    client,
    body: {
      to: contact.phone,
      messaging_account_id: 1,
      type: 'template',
      content: { name: 'welcome', language: 'en', components: [] },
    },
  }),
).data;
const conversations = ok(await listConversations({ client, query: { status: 'open' } })).data;
const conversation = ok(await getConversation({ client, path: { id: first(conversations).id } })).data;

const campaign = ok(
  await createCampaign({
    client,
    body: {
      name: 'Spring',
      messaging_account_id: 1,
      template_name: 'promo',
      segment_id: 2,
      scheduled_at: '2099-01-01T00:00:00Z',
    },
  }),
).data;
const campaigns = ok(await listCampaigns({ client })).data;
const endpoint = ok(
  await createWebhook({
    client,
    body: { url: 'http://127.0.0.1:9/hooks', events: ['message.delivered'], secret: 'whsec_test' },
  }),
).data;
const endpoints = ok(await listWebhooks({ client })).data;
const account = ok(await getAccount({ client })).data;
const deleted = ok(await deleteContact({ client, path: { id } })).data;

// Each error narrowed by its code, its details read as typed.
const bob = { name: 'Bob', phone: '4915100000002' };
const [forbiddenStatus, forbidden] = failed(await createContact({ client: as(config.readOnlyKey), body: bob }));
const [planStatus, plan] = failed(await createContact({ client: as(config.tightKey), body: bob }));
const [missingStatus, missing] = failed(await getContact({ client, path: { id: 999999 } }));
const [invalidStatus, invalid] = failed(
  await sendMessage({
    client,
    body: { to: contact.phone, messaging_account_id: 999, type: 'text', content: { body: 'Hi' } },
  }),
);
const [phoneStatus, phone] = failed(await createContact({ client, body: { name: 'Bob', phone: 'abc' } }));
const [largeStatus, large] = failed(
  await createContact({ client, body: { name: 'x'.repeat(1_100_000), phone: '4915100000002' } }),
);
const [unknownKeyStatus, unknownKey] = failed(await getAccount({ client: as('sk_test_unknown') }));

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
