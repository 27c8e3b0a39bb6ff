import { describe, expect, it } from 'vitest';
import { endpointsOf } from '../../src/contract/endpoints.js';
import { Variant1Client, Variant2Client, type DriftReport } from '../../src/index.js';
import { createMockServer } from '../../src/mock/index.js';
import { useMocks } from '../helpers/mock-api.js';

const PHONE = '4915112345678';
const seed = { contacts: [{ name: 'Ada', phone: PHONE, tags: ['vip'] }] };
const v1 = createMockServer({ variant: 1, baseUrl: 'https://contract-clients-v1.bizmsg.test/api/v1', seed });
const v2 = createMockServer({ variant: 2, baseUrl: 'https://contract-clients-v2.bizmsg.test/api/v1', seed });
useMocks(v1, v2);

/** One call of each client method the endpoint table names, against a mock holding contact 1 and message msg_1. */
const V1_CALLS: Record<string, (client: Variant1Client) => Promise<unknown>> = {
  'messages.send': (c) => c.messages.send({ to: PHONE, message: 'Hi' }),
  'messages.sendTemplate': (c) =>
    c.messages.sendTemplate({ to: PHONE, name: 'welcome', language: 'en', components: [] }),
  'messages.status': (c) => c.messages.status('msg_1'),
  'contacts.list': (c) => c.contacts.list().toArray(),
  'contacts.create': (c) => c.contacts.create({ name: 'Bob', phone: '4915100000002' }),
  'contacts.get': (c) => c.contacts.get(1),
  'contacts.update': (c) => c.contacts.update(1, { tags: ['vip', 'new'] }),
  'automations.trigger': (c) => c.automations.trigger({ automation_id: 'feedback', to: PHONE }),
  'account.me': (c) => c.account.me(),
};
const V2_CALLS: Record<string, (client: Variant2Client) => Promise<unknown>> = {
  'contacts.list': (c) => c.contacts.list({ tag: 'vip' }).toArray(),
  'contacts.create': (c) => c.contacts.create({ name: 'Bob', phone: '4915100000002' }),
  'contacts.get': (c) => c.contacts.get(1),
  'contacts.update': (c) => c.contacts.update(1, { name: 'Ada L.' }),
  'contacts.delete': (c) => c.contacts.delete(1),
  'messages.send': (c) =>
    c.messages.sendTemplate({ to: PHONE, messaging_account_id: 1, name: 'welcome', language: 'en', components: [] }),
  'conversations.list': (c) => c.conversations.list({ status: 'open' }).toArray(),
  'conversations.get': (c) => c.conversations.get(1),
  'campaigns.list': (c) => c.campaigns.list().toArray(),
  'campaigns.create': (c) =>
    c.campaigns.create({
      name: 'Spring',
      messaging_account_id: 1,
      template_name: 'promo',
      segment_id: 1,
      scheduled_at: '2099-01-01T00:00:00Z',
    }),
  'webhooks.list': (c) => c.webhooks.list().toArray(),
  'webhooks.create': (c) =>
    c.webhooks.create({ url: 'http://127.0.0.1:9/hooks', events: ['contact.created'], secret: 's' }),
  'account.me': (c) => c.account.me(),
};

describe('each client method named by the endpoint table', () => {
  // The mock answers exactly bizmsg's guesses: nothing it sends differs from what the clients expect.
  it.each(endpointsOf(1).map((e) => e.clientMethod))(
    'Variant 1 %s parses what the mock answers, without drift',
    async (method) => {
      v1.receiveMessage({ from: PHONE, body: 'Hello' });
      const reports: DriftReport[] = [];
      const onDrift = (report: DriftReport) => void reports.push(report);
      const client = new Variant1Client({ apiKey: v1.apiKey, baseUrl: v1.baseUrl, maxRetries: 0, onDrift });
      expect(V1_CALLS[method], method).toBeDefined();
      await expect(V1_CALLS[method]!(client)).resolves.toBeDefined();
      expect(reports).toEqual([]);
    },
  );

  it.each(endpointsOf(2).map((e) => e.clientMethod))(
    'Variant 2 %s parses what the mock answers, without drift',
    async (method) => {
      v2.receiveMessage({ from: PHONE, body: 'Hello' });
      const reports: DriftReport[] = [];
      const onDrift = (report: DriftReport) => void reports.push(report);
      const client = new Variant2Client({ apiKey: v2.apiKey, baseUrl: v2.baseUrl, maxRetries: 0, onDrift });
      expect(V2_CALLS[method], method).toBeDefined();
      await expect(V2_CALLS[method]!(client)).resolves.toBeDefined();
      expect(reports).toEqual([]);
    },
  );
});
