import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { signWebhook } from '../../src/webhooks/index.js';
import { EVENT_DATA } from '../helpers/event-samples.js';

const SECRET = 'whsec_example';
const DELIVERED = JSON.stringify({
  event: 'message.delivered',
  // Fresh: the receivers refuse a delivery older than 27 h by default.
  timestamp: new Date().toISOString(),
  data: { message_id: 'msg_7', to: '+4915112345678', status: 'delivered', delivered_at: '2026-11-21T10:00:01Z' },
});
const signed = (body: string, secret = SECRET) => ({
  'content-type': 'application/json',
  'x-service-signature': signWebhook(body, secret),
});

let mock: MockHttpServer;
let log: ReturnType<typeof vi.spyOn>;
beforeAll(async () => {
  mock = await startMockHttpServer({ variant: 2 });
});
afterAll(() => mock.close());
beforeEach(() => {
  // The examples read their configuration on first use (or, for Lambda, at import): set it first.
  vi.stubEnv('BIZMSG_WEBHOOK_SECRET', SECRET);
  vi.stubEnv('BIZMSG_API_KEY', mock.apiKey);
  vi.stubEnv('BIZMSG_BASE_URL', mock.baseUrl);
  vi.resetModules();
  log = vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllEnvs();
  mock.mock.reset();
});

describe('examples/nextjs-app-router', () => {
  it('app/api/webhooks/bizmsg/route.ts verifies the raw body and handles the event', async () => {
    const { POST } = await import('../../examples/nextjs-app-router/app/api/webhooks/bizmsg/route.js');
    const url = 'http://localhost:3000/api/webhooks/bizmsg';
    expect((await POST(new Request(url, { method: 'POST', body: DELIVERED, headers: signed(DELIVERED) }))).status).toBe(
      200,
    );
    expect(log.mock.calls).toEqual([['message msg_7 delivered at 2026-11-21T10:00:01Z']]);
    expect(
      (await POST(new Request(url, { method: 'POST', body: DELIVERED, headers: signed(DELIVERED, 'wrong') }))).status,
    ).toBe(401);
  });

  it('app/api/messages/route.ts sends through the client', async () => {
    const { POST } = await import('../../examples/nextjs-app-router/app/api/messages/route.js');
    const answer = await POST(
      new Request('http://localhost:3000/api/messages', {
        method: 'POST',
        body: JSON.stringify({ to: '+4915112345678', body: 'Hi' }),
      }),
    );
    expect([answer.status, await answer.json()]).toEqual([201, { id: 'msg_1', status: 'sent' }]);
  });
});

describe('examples/nextjs-pages-router', () => {
  /** Serves one API route as Next does: with the body parser unless the route's config turns it off. */
  async function serveRoute(route: {
    default: (req: never, res: ServerResponse) => unknown;
    config?: { api: { bodyParser: boolean } };
  }) {
    const serve = async (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => {
      if (route.config?.api.bodyParser !== false) {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        req.body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      }
      await route.default(req as never, res);
    };
    const server = createServer((req, res) => void serve(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }

  it('pages/api/webhooks/bizmsg.ts turns the body parser off and verifies the raw body', async () => {
    const route = await import('../../examples/nextjs-pages-router/pages/api/webhooks/bizmsg.js');
    expect(route.config).toEqual({ api: { bodyParser: false } });
    const server = await serveRoute(route);
    try {
      const answer = await fetch(server.url, { method: 'POST', body: DELIVERED, headers: signed(DELIVERED) });
      expect(answer.status).toBe(200);
      expect(log.mock.calls).toEqual([['message msg_7 delivered at 2026-11-21T10:00:01Z']]);
    } finally {
      await server.close();
    }
  });

  it('pages/api/messages.ts sends through the client', async () => {
    const server = await serveRoute(await import('../../examples/nextjs-pages-router/pages/api/messages.js'));
    try {
      const answer = await fetch(server.url, {
        method: 'POST',
        body: JSON.stringify({ to: '+4915112345678', body: 'Hi' }),
      });
      expect([answer.status, await answer.json()]).toEqual([201, { id: 'msg_1', status: 'sent' }]);
    } finally {
      await server.close();
    }
  });
});

describe('examples/cloudflare-worker', () => {
  it('verifies an incoming message and replies after answering, with its bindings as configuration', async () => {
    const { default: worker } = await import('../../examples/cloudflare-worker/src/index.js');
    const env = { BIZMSG_API_KEY: mock.apiKey, BIZMSG_BASE_URL: mock.baseUrl, BIZMSG_WEBHOOK_SECRET: SECRET };
    const pending: Promise<unknown>[] = [];
    const body = JSON.stringify({
      event: 'message.received',
      timestamp: new Date().toISOString(),
      data: { ...EVENT_DATA['message.received'], from: '+4915112345678' },
    });
    const request = new Request('https://worker.example/webhooks/bizmsg', {
      method: 'POST',
      body,
      headers: signed(body),
    });

    const answer = await worker.fetch(request, env, { waitUntil: (promise) => void pending.push(promise) });
    expect(answer.status).toBe(200);
    expect(pending).toHaveLength(1);
    await Promise.all(pending);
    expect([...mock.mock.store.messages.values()].map((message) => [message.to, message.content])).toEqual([
      ['+4915112345678', { body: 'Thanks, we will get back to you.' }],
    ]);
    const other = await worker.fetch(new Request('https://worker.example/'), env, { waitUntil: () => {} });
    expect(other.status).toBe(404);
  });
});

describe('examples/aws-lambda', () => {
  const restEvent = (body: string, headers: Record<string, string>, isBase64Encoded: boolean) =>
    ({
      httpMethod: 'POST',
      path: '/webhooks/bizmsg',
      headers,
      body: isBase64Encoded ? Buffer.from(body).toString('base64') : body,
      isBase64Encoded,
    }) as unknown as APIGatewayProxyEvent;

  it('verifies the raw body of a REST API event, plain or base64-encoded', async () => {
    const { handler } = await import('../../examples/aws-lambda/handler.js');
    const headers = (body: string) => ({
      'X-Service-Signature': signWebhook(body, SECRET),
      'Content-Type': 'application/json',
    });
    const another = DELIVERED.replace('msg_7', 'msg_8');
    expect((await handler(restEvent(DELIVERED, headers(DELIVERED), false))).statusCode).toBe(200);
    expect((await handler(restEvent(another, headers(another), true))).statusCode).toBe(200);
    // The same delivery again (a redelivery) is answered 200, and handled once: the receiver's default.
    const copy = await handler(restEvent(DELIVERED, headers(DELIVERED), true));
    expect([copy.statusCode, JSON.parse(copy.body).duplicate]).toEqual([200, true]);
    expect(log.mock.calls).toEqual([
      ['message msg_7 delivered at 2026-11-21T10:00:01Z'],
      ['message msg_8 delivered at 2026-11-21T10:00:01Z'],
    ]);
    const forged = await handler(
      restEvent(DELIVERED, { 'X-Service-Signature': signWebhook(DELIVERED, 'wrong') }, false),
    );
    expect([forged.statusCode, JSON.parse(forged.body).error]).toEqual([401, 'mismatch']);
  });

  it('takes an HTTP API (v2) event', async () => {
    const { handler } = await import('../../examples/aws-lambda/handler.js');
    const event = {
      requestContext: { http: { method: 'POST' } },
      headers: signed(DELIVERED),
      body: DELIVERED,
      isBase64Encoded: false,
    } as unknown as APIGatewayProxyEventV2;
    expect((await handler(event)).statusCode).toBe(200);
  });
});
