import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/index.js';
import { errorEnvelope, rawApi, useMocks } from '../helpers/mock-api.js';

const mock = createMockServer({
  variant: 2,
  baseUrl: 'https://plan-limits.bizmsg.test/api/v1',
  plans: {
    none: { rateLimit: 1000, maxContacts: 0, maxWebhookEndpoints: 0, maxMessages: 0 },
    one: { rateLimit: 1000, maxContacts: 1, maxWebhookEndpoints: 1, maxMessages: 1 },
    two: { rateLimit: 1000, maxContacts: 2, maxWebhookEndpoints: 2, maxMessages: 2 },
  },
});
useMocks(mock);

/** The request that adds the `n`th item counted by each limit. */
const adds: Record<'maxContacts' | 'maxWebhookEndpoints' | 'maxMessages', (n: number) => [string, object]> = {
  maxContacts: (n: number) => ['/contacts', { name: `c${n}`, phone: `4915100000${n}` }],
  maxWebhookEndpoints: (n: number) => [
    '/webhooks',
    { url: `https://example.com/${n}`, events: ['message.sent'], secret: 's' },
  ],
  maxMessages: () => [
    '/messages/send',
    { to: '4915112345678', messaging_account_id: 1, type: 'text', content: { body: 'x' } },
  ],
};

describe('PLAN_LIMIT_EXCEEDED', () => {
  it.each([
    ['maxContacts', 0, 'The plan allows at most 0 contacts.'],
    ['maxContacts', 1, 'The plan allows at most 1 contact.'],
    ['maxContacts', 2, 'The plan allows at most 2 contacts.'],
    ['maxWebhookEndpoints', 0, 'The plan allows at most 0 webhook endpoints.'],
    ['maxWebhookEndpoints', 1, 'The plan allows at most 1 webhook endpoint.'],
    ['maxWebhookEndpoints', 2, 'The plan allows at most 2 webhook endpoints.'],
    ['maxMessages', 0, 'The plan allows at most 0 messages.'],
    ['maxMessages', 1, 'The plan allows at most 1 message.'],
    ['maxMessages', 2, 'The plan allows at most 2 messages.'],
  ] as const)('%s of %i says: %s', async (limit, max, message) => {
    const api = rawApi({ ...mock, apiKey: mock.createKey({ plan: ['none', 'one', 'two'][max] }) });
    for (let n = 1; n <= max; n++) {
      const [path, body] = adds[limit](n);
      expect((await api('POST', path, { body })).status).toBeLessThan(300);
    }
    const [path, body] = adds[limit](max + 1);
    const refused = await api('POST', path, { body });
    expect([refused.status, refused.body]).toEqual([
      403,
      errorEnvelope(2, { code: 'PLAN_LIMIT_EXCEEDED', message, details: { [limit]: max } }),
    ]);
  });
});
