import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, MAGIC_NUMBERS, openApiDocument } from '../../src/mock/index.js';
import { WEBHOOK_EVENT_KINDS } from '../../src/schemas/webhook-endpoint.js';
import { parseWebhook } from '../../src/webhooks/index.js';
import { startTestServer } from '../helpers/http-server.js';
import { rawApi } from '../helpers/mock-api.js';
import { OpenApiContract } from '../helpers/openapi-contract.js';

const SECRET = 'whsec_contract';
let receiver: Awaited<ReturnType<typeof startTestServer>>;
const mock = createMockServer({ variant: 2, baseUrl: 'https://contract-webhooks.bizmsg.test/api/v1' });
beforeAll(async () => {
  receiver = await startTestServer((_, res) => res.writeHead(204).end());
  mock.listen();
});
afterAll(async () => {
  mock.close();
  await receiver.close();
});

describe('webhook deliveries of the mock', () => {
  it('fit the webhooks of the OpenAPI document, and parseWebhook reads every kind', async () => {
    mock.registerWebhook({ url: `${receiver.origin}/hooks`, events: [...WEBHOOK_EVENT_KINDS], secret: SECRET });
    const api = rawApi(mock);
    await api('POST', '/contacts', { body: { name: 'Ada', phone: '4915112345678', tags: ['vip'] } });
    await api('PUT', '/contacts/1', { body: { email: 'ada@example.com' } });
    await api('POST', '/messages/send', {
      body: { to: '4915112345678', messaging_account_id: 1, type: 'text', content: { body: 'Hi' } },
    });
    await api('POST', '/messages/send', {
      body: { to: MAGIC_NUMBERS.fails, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } },
    });
    mock.receiveMessage({ from: '4915112345678', body: 'Thanks' });
    mock.updateConversation(1, { status: 'closed' });
    await api('POST', '/campaigns', {
      body: {
        name: 'Spring',
        messaging_account_id: 1,
        template_name: 'promo',
        segment_id: 2,
        scheduled_at: new Date(mock.clock.now() + 1000).toISOString(),
      },
    });
    await mock.clock.advance(6000);

    const contract = new OpenApiContract(openApiDocument(2));
    const kinds = new Set<string>();
    for (const request of receiver.received) {
      const headers = new Headers(request.headers as Record<string, string>);
      const body = JSON.parse(request.body) as { event: string };
      expect(contract.webhookProblems(body.event, headers, body), request.body).toEqual([]);
      expect(parseWebhook(request.body, headers.get('x-service-signature'), SECRET).event).toBe(body.event);
      kinds.add(body.event);
    }
    expect([...kinds].sort()).toEqual([...WEBHOOK_EVENT_KINDS].sort());
  });

  it('are described the same in both variants', () => {
    const [v1, v2] = [openApiDocument(1), openApiDocument(2)] as any[];
    expect(v1.webhooks).toEqual(v2.webhooks);
    for (const kind of WEBHOOK_EVENT_KINDS) {
      const name = v2.webhooks[kind].post.requestBody.content['application/json'].schema.$ref.split('/').pop();
      expect(v1.components.schemas[name]).toEqual(v2.components.schemas[name]);
    }
  });
});
