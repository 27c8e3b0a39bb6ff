import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp as createExpressApp } from '../../examples/express/app.js';
import { createApp as createFastifyApp } from '../../examples/fastify/app.js';
import { createApp as createHonoApp } from '../../examples/hono/app.js';
import { Variant2Client } from '../../src/index.js';
import { startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { signWebhook } from '../../src/webhooks/index.js';

type AppOptions = Parameters<typeof createExpressApp>[0];
type Started = { url: string; close(): Promise<void> };

/** Each framework example, started on a free loopback port. */
const FRAMEWORKS: Array<[string, (options: AppOptions) => Promise<Started>]> = [
  [
    'Express',
    async (options) => {
      const server = createExpressApp(options).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
    },
  ],
  [
    'Fastify',
    async (options) => {
      const app = createFastifyApp(options);
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      return { url, close: () => app.close() };
    },
  ],
  [
    'Hono',
    async (options) => {
      const app = createHonoApp(options);
      const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
        const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
      });
      const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
    },
  ],
];

const SECRET = 'whsec_example';
let mock: MockHttpServer;
beforeAll(async () => {
  mock = await startMockHttpServer({ variant: 2 });
});
afterAll(() => mock.close());

describe.each(FRAMEWORKS)('examples/%s', (_, start) => {
  const logged: string[] = [];
  let app: Started;
  beforeAll(async () => {
    const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
    app = await start({ client, webhookSecret: SECRET, log: (line) => logged.push(line) });
  });
  afterAll(() => app.close());
  afterEach(() => {
    mock.mock.reset();
    logged.length = 0;
  });

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${app.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

  it('sends a message through the client and answers with its id', async () => {
    const answer = await post('/messages', JSON.stringify({ to: '+4915112345678', body: 'Hi' }));
    expect([answer.status, await answer.json()]).toEqual([201, { id: 'msg_1', status: 'sent' }]);
    expect([...mock.mock.store.messages.keys()]).toEqual(['msg_1']);
  });

  it("turns the service's errors into its own answers", async () => {
    const invalid = await post('/messages', JSON.stringify({ to: '+4915112345678', body: '' }));
    expect(invalid.status).toBe(422);
    expect(Object.keys(((await invalid.json()) as { error: object }).error)).toEqual(['content.body']);
    const failing = await post('/messages', JSON.stringify({ to: '+15550000002', body: 'Hi' }));
    expect([failing.status, await failing.json()]).toEqual([502, { error: 'MESSAGING_ERROR' }]);
  });

  it("receives the mock's signed delivery webhook on its raw-body route", async () => {
    const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
    await client.webhooks.create({ url: `${app.url}/webhooks/bizmsg`, events: ['message.delivered'], secret: SECRET });
    await client.messages.sendText({ to: '+4915112345678', messaging_account_id: 1, body: 'Hi' });

    await mock.mock.clock.advance(1000);

    expect(mock.mock.deliveries.map((attempt) => [attempt.event, attempt.status])).toEqual([
      ['message.delivered', 200],
    ]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^message msg_1 delivered at \d{4}-\d\d-\d\dT/);
  });

  it('rejects a webhook with a wrong signature and handles nothing', async () => {
    const body = JSON.stringify({
      event: 'message.delivered',
      timestamp: '2026-11-21T10:00:00Z',
      data: { message_id: 'm', to: 'x', status: 'delivered', delivered_at: 'now' },
    });
    const forged = await post('/webhooks/bizmsg', body, { 'x-service-signature': signWebhook(body, 'not the secret') });
    expect(forged.status).toBe(401);
    expect(logged).toEqual([]);
  });
});
