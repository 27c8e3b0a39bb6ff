// Every field the mock sends is declared in the document: its answers, checked against a copy of
// the document whose objects allow no undeclared property, over a run that fills every field in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIFECYCLE_MS, MAGIC_NUMBERS, startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { openApiDocument } from '../../src/openapi/document.js';
import { WEBHOOK_RETRY_DELAYS_MS } from '../../src/contract/webhooks.js';
import { closedDocument, OpenApiContract } from '../helpers/openapi-contract.js';

const PHONE = '4915112345678';
/** Refused at once on loopback: deliveries fail, and the endpoint is disabled after its retries. */
const DEAD_URL = 'http://127.0.0.1:9/hooks';

/** One request: the operation's path as the document writes it, and the path sent. */
type Step = [method: string, template: string, target: string, body?: unknown];

describe.each([1, 2] as const)('Variant %i: the mock sends only fields its document declares', (variant) => {
  const contract = new OpenApiContract(closedDocument(openApiDocument(variant)));
  let server: MockHttpServer;
  beforeAll(async () => {
    server = await startMockHttpServer({ variant, webhookTimeout: 50 });
  });
  afterAll(() => server.close());

  async function check([method, template, target, body]: Step): Promise<any> {
    const response = await fetch(`${server.baseUrl}${target}`, {
      method,
      headers: {
        ...(variant === 1 ? { 'x-api-key': server.apiKey } : { authorization: `Bearer ${server.apiKey}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const answer = { status: response.status, headers: response.headers, body: JSON.parse(text) };
    expect([response.status < 300, contract.responseProblems(method, template, answer)], text).toEqual([true, []]);
    return answer.body.data;
  }

  it('over contacts, messages through their lifecycle, conversations, campaigns, webhooks and the account', async () => {
    const { mock } = server;
    const contact = { name: 'Ada', phone: PHONE, email: 'ada@example.com', tags: ['vip'], custom_fields: { a: 1 } };
    const created = await check([
      'POST',
      variant === 1 ? '/contacts/create' : '/contacts',
      variant === 1 ? '/contacts/create' : '/contacts',
      contact,
    ]);
    await check(['PUT', '/contacts/{id}', `/contacts/${created.id}`, { name: 'Ada L.' }]);
    await check(['GET', '/contacts/{id}', `/contacts/${created.id}`]);
    await check(['GET', '/contacts', '/contacts']);
    await check(['GET', '/account/me', '/account/me']);
    mock.receiveMessage({ from: PHONE, body: 'Hello' });
    if (variant === 1) {
      const sent = await check(['POST', '/messages/send', '/messages/send', { to: PHONE, message: 'Hi' }]);
      const failed = await check([
        'POST',
        '/messages/template',
        '/messages/template',
        { to: MAGIC_NUMBERS.fails, name: 'welcome', language: 'en', components: [] },
      ]);
      await mock.clock.advance(LIFECYCLE_MS.read);
      for (const id of [sent.message_id, failed.message_id, 'msg_1'])
        await check(['GET', '/messages/{id}/status', `/messages/${id}/status`]);
      await check([
        'POST',
        '/automations/trigger',
        '/automations/trigger',
        { automation_id: 'welcome-flow', to: PHONE },
      ]);
      return;
    }
    await check(['POST', '/webhooks', '/webhooks', { url: DEAD_URL, events: ['message.sent'], secret: 'whsec_x' }]);
    const text = { to: PHONE, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } };
    await check(['POST', '/messages/send', '/messages/send', text]);
    await check(['POST', '/messages/send', '/messages/send', { ...text, to: MAGIC_NUMBERS.fails }]);
    const at = new Date(mock.clock.now() + 1000).toISOString();
    const campaign = {
      name: 'Spring',
      messaging_account_id: 1,
      template_name: 'promo',
      segment_id: 1,
      scheduled_at: at,
    };
    await check(['POST', '/campaigns', '/campaigns', campaign]);
    await mock.clock.advance(LIFECYCLE_MS.read);
    for (const delay of WEBHOOK_RETRY_DELAYS_MS) await mock.clock.advance(delay);
    expect(mock.store.webhookEndpoints.map((e) => e.status)).toEqual(['disabled']);
    const campaigns = await check(['GET', '/campaigns', '/campaigns']);
    expect(campaigns.map((c: { status: string }) => c.status)).toEqual(['completed']);
    await check(['GET', '/webhooks', '/webhooks']);
    const conversations = await check(['GET', '/conversations', '/conversations']);
    for (const { id } of conversations) await check(['GET', '/conversations/{id}', `/conversations/${id}`]);
    await check(['DELETE', '/contacts/{id}', `/contacts/${created.id}`]);
  });
});
