import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockServer, LIFECYCLE_MS, WEBHOOK_RETRY_DELAYS_MS } from '../../src/mock/index.js';
import { parseWebhook } from '../../src/webhooks/index.js';
import { startTestServer } from '../helpers/http-server.js';
import { rawApi } from '../helpers/mock-api.js';

const mock = createMockServer({ variant: 2, webhookTimeout: 300 });
const api = rawApi(mock);
let receiver: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  mock.listen();
  receiver = await startTestServer();
});
afterAll(async () => {
  mock.close();
  await receiver.close();
});
beforeEach(() => {
  mock.reset();
  receiver.received.length = 0;
  receiver.handle((_, res) => res.end('ok'));
});
afterEach(() => mock.clearFaults());

const SECRET = 'whsec_mock_test';
async function register(events: string[], path = '/hook') {
  const response = await api('POST', '/webhooks', {
    body: { url: `${receiver.origin}${path}`, events, secret: SECRET },
  });
  expect(response.status).toBe(201);
  return response.body.data as { id: number };
}
const send = () =>
  api('POST', '/messages/send', {
    body: { to: '+4915112345678', messaging_account_id: 1, type: 'text', content: { body: 'Hi' } },
  });

describe('delivery', () => {
  it('POSTs signed {event, timestamp, data} JSON for subscribed kinds only', async () => {
    await register(['message.sent', 'message.delivered']);
    await send();
    await mock.clock.advance(LIFECYCLE_MS.read);
    expect(receiver.received.map((r) => r.path)).toEqual(['/hook', '/hook']);
    const [sent, delivered] = receiver.received.map((r) => {
      expect(r.method).toBe('POST');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      return parseWebhook(r.body, r.headers['x-service-signature'], SECRET);
    });
    expect(sent).toMatchObject({
      event: 'message.sent',
      data: { message_id: 'msg_1', to: '4915112345678', status: 'sent' },
    });
    expect(delivered).toEqual({
      event: 'message.delivered',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: {
        message_id: 'msg_1',
        to: '4915112345678',
        status: 'delivered',
        delivered_at: delivered!.timestamp,
        conversation_id: 1,
      },
    });
    expect(mock.deliveries.map((d) => [d.event, d.attempt, d.status, d.ok])).toEqual([
      ['message.sent', 1, 200, true],
      ['message.delivered', 1, 200, true],
    ]);
  });

  it('emits every event kind of the spec', async () => {
    await register([
      'message.received',
      'message.sent',
      'message.delivered',
      'message.read',
      'message.failed',
      'conversation.created',
      'conversation.closed',
      'contact.created',
      'contact.updated',
      'campaign.completed',
    ]);
    await api('POST', '/contacts', { body: { name: 'Ada', phone: '4915112345678' } });
    await api('PUT', '/contacts/1', { body: { name: 'Ada L' } });
    await send();
    await api('POST', '/messages/send', {
      body: { to: '+15550000001', messaging_account_id: 1, type: 'text', content: { body: 'x' } },
    });
    mock.receiveMessage({ from: '4915112345678', body: 'Thanks' });
    mock.updateConversation(1, { status: 'closed' });
    await api('POST', '/campaigns', {
      body: {
        name: 'C',
        messaging_account_id: 1,
        template_name: 'promo',
        segment_id: 3,
        scheduled_at: '2020-01-01T00:00:00Z',
      },
    });
    await mock.clock.advance(LIFECYCLE_MS.read);
    const kinds = new Set(receiver.received.map((r) => JSON.parse(r.body).event));
    expect([...kinds].sort()).toEqual([
      'campaign.completed',
      'contact.created',
      'contact.updated',
      'conversation.closed',
      'conversation.created',
      'message.delivered',
      'message.failed',
      'message.read',
      'message.received',
      'message.sent',
    ]);
  });

  it('delivers Variant 1 events to endpoints registered through the control API', async () => {
    const v1 = createMockServer({ variant: 1, baseUrl: 'https://v1.bizmsg.test/api/v1' });
    v1.listen();
    try {
      v1.registerWebhook({ url: `${receiver.origin}/v1`, events: ['message.delivered'], secret: SECRET });
      await rawApi(v1)('POST', '/messages/send', { body: { to: '4915112345678', message: 'Hi' } });
      await v1.clock.advance(LIFECYCLE_MS.delivered);
      expect(receiver.received.map((r) => [r.path, JSON.parse(r.body).event])).toEqual([['/v1', 'message.delivered']]);
    } finally {
      v1.close();
    }
  });
});

describe('retry schedule', () => {
  it('retries after 1 m, 5 m, 30 m, 2 h and 24 h, then disables the endpoint and e-mails the owner', async () => {
    receiver.handle((_, res) => {
      res.writeHead(503);
      res.end();
    });
    const endpoint = await register(['contact.created']);
    await api('POST', '/contacts', { body: { name: 'Ada', phone: '4915112345678' } });
    await mock.clock.settled();
    expect(mock.deliveries).toHaveLength(1);
    // nothing happens just before each retry is due; the retry happens when it is
    for (const delay of WEBHOOK_RETRY_DELAYS_MS) {
      const attempts = mock.deliveries.length;
      await mock.clock.advance(delay - 1000);
      expect(mock.deliveries).toHaveLength(attempts);
      await mock.clock.advance(1000);
      expect(mock.deliveries).toHaveLength(attempts + 1);
    }
    const gaps = mock.deliveries.slice(1).map((d, i) => d.at - mock.deliveries[i]!.at);
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[i]!));
    gaps.forEach((gap, i) => expect(gap).toBeLessThan(WEBHOOK_RETRY_DELAYS_MS[i]! + 1000));
    expect(mock.deliveries.map((d) => [d.attempt, d.status, d.ok])).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => [n, 503, false]),
    );
    expect(receiver.received).toHaveLength(6);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    const listed = await api('GET', '/webhooks');
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: endpoint.id, status: 'disabled', disabled_at: expect.any(String) }),
    ]);
    expect(mock.emails).toEqual([
      {
        to: 'owner@acme.test',
        subject: `Webhook endpoint ${receiver.origin}/hook disabled`,
        body: `Delivery of a contact.created event to ${receiver.origin}/hook failed 6 times (last result: 503), so the endpoint was disabled. Fix it and register it again.`,
        at: expect.any(Number),
      },
    ]);
    // a disabled endpoint gets nothing more
    await api('POST', '/contacts', { body: { name: 'Bob', phone: '4915100000002' } });
    await mock.clock.advance(WEBHOOK_RETRY_DELAYS_MS.reduce((a: number, b: number) => a + b, 0));
    expect(receiver.received).toHaveLength(6);
  });

  it('stops retrying once a retry succeeds', async () => {
    let calls = 0;
    receiver.handle((_, res) => {
      res.writeHead(++calls <= 2 ? 500 : 204);
      res.end();
    });
    await register(['contact.created']);
    await api('POST', '/contacts', { body: { name: 'Ada', phone: '4915112345678' } });
    await mock.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0] + WEBHOOK_RETRY_DELAYS_MS[1]);
    await mock.clock.advance(WEBHOOK_RETRY_DELAYS_MS.reduce((a: number, b: number) => a + b, 0));
    expect(mock.deliveries.map((d) => [d.attempt, d.status, d.ok])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 204, true],
    ]);
    expect(mock.emails).toEqual([]);
  });

  it('counts a network error and a time-out as failures', async () => {
    receiver.handle((_, res) => res.socket?.destroy());
    await register(['contact.created'], '/reset');
    const unreachable = await api('POST', '/webhooks', {
      body: { url: 'http://127.0.0.1:9/nothing', events: ['contact.created'], secret: 's' },
    });
    expect(unreachable.status).toBe(201);
    await api('POST', '/contacts', { body: { name: 'Ada', phone: '4915112345678' } });
    await mock.clock.settled();
    receiver.handle(() => undefined); // never answers
    await mock.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]);
    const byUrl = (suffix: string) => mock.deliveries.filter((d) => d.url.endsWith(suffix)).map((d) => d.status);
    expect(byUrl('/reset')).toEqual(['network_error', 'timeout']);
    expect(byUrl('/nothing')).toEqual(['network_error', 'network_error']);
  });
});
