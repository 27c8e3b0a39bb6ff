import { Agent, createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createWebhookHandler,
  InvalidArgumentError,
  signWebhook,
  webhookMiddleware,
  type WebhookEvent,
  type WebhookMiddleware,
} from '../../src/webhooks/index.js';
import { deliver } from '../helpers/deliver.js';

const SECRET = 'whsec_handlers';
const body = JSON.stringify({
  event: 'message.delivered',
  // Fresh: the receivers refuse a delivery older than 27 h by default.
  timestamp: new Date().toISOString(),
  data: { message_id: 'msg_1', to: '4915112345678', status: 'delivered', delivered_at: '2026-11-21T10:00:00Z' },
});
const signed = { 'content-type': 'application/json', 'X-Service-Signature': signWebhook(body, SECRET) };

/** What the fetch handler answers (and logs) when the body was read before it got the Request. */
const USED_BODY =
  'createWebhookHandler needs the Request as it arrived, but its body was already read (or is locked by a reader), so the bytes the signature covers are gone. ' +
  'Pass the Request on untouched (no request.json(), .text() or .formData() before it), ' +
  'or read the body yourself with await request.text() and call parseWebhookAsync(text, signature, secret) instead.';

function post(payload: string, headers: Record<string, string>) {
  return new Request('https://hooks.example.test/bizmsg', { method: 'POST', body: payload, headers });
}

describe('createWebhookHandler (fetch)', () => {
  it('dispatches to the typed handler for its kind and to onEvent, then answers 200', async () => {
    const calls: string[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      on: {
        'message.delivered': (event) => {
          calls.push(`delivered ${event.data.message_id} at ${event.data.delivered_at}`);
        },
        'message.read': () => calls.push('read'),
      },
      onEvent: (event: WebhookEvent) => {
        calls.push(`any ${event.event}`);
      },
    });
    const response = await handler(post(body, signed));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, event: 'message.delivered' });
    expect(calls).toEqual(['delivered msg_1 at 2026-11-21T10:00:00Z', 'any message.delivered']);
  });

  it('finds the signature header in any case and accepts a bare hex signature', async () => {
    const handler = createWebhookHandler({ secret: SECRET });
    const response = await handler(post(body, { 'x-service-signature': signWebhook(body, SECRET, { prefix: false }) }));
    expect(response.status).toBe(200);
  });

  it.each([
    [{}, 401, 'missing_signature'],
    [{ 'X-Service-Signature': 'nonsense' }, 401, 'malformed_signature'],
    [{ 'X-Service-Signature': signWebhook(body, 'wrong') }, 401, 'mismatch'],
  ])('answers %j with %i', async (headers, status, error) => {
    const onEvent = vi.fn();
    const response = await createWebhookHandler({ secret: SECRET, onEvent })(post(body, headers));
    expect(response.status).toBe(status);
    expect((await response.json()).error).toBe(error);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('answers 400 to a signed body that is not an event', async () => {
    const bad = '{"event":"message.delivered"}';
    const response = await createWebhookHandler({ secret: SECRET })(
      post(bad, { 'x-service-signature': signWebhook(bad, SECRET) }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'malformed_payload',
      message: 'The body is not an event: a JSON object with a string `event` and an object `data`.',
    });
  });

  it('answers 500 when the handler throws, so that the service retries, and hands the error to onError only', async () => {
    const failure = new Error('db down: password=hunter2');
    const reported: unknown[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      on: { 'message.delivered': () => Promise.reject(failure) },
      onError: (error, event) => void reported.push(error, event.event),
    });
    const response = await handler(post(body, signed));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: 'handler_failed',
      message: 'The handler for message.delivered failed.',
    });
    expect(reported).toEqual([failure, 'message.delivered']);
  });

  it('writes its own lines to the logger option instead of console: a failed handler, a body read first, a failing dedupe store', async () => {
    const console_ = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const lines: string[] = [];
    const logger = {
      debug: (m: string) => lines.push(`debug ${m}`),
      info: (m: string) => lines.push(`info ${m}`),
      warn: (m: string) => lines.push(`warn ${m}`),
      error: (m: string, ...context: unknown[]) => lines.push(`error ${m} ${context.map(String).join(' ')}`.trim()),
    };
    const failing = {
      claim: () => Promise.reject(new Error('connection refused')),
      complete: () => Promise.resolve(),
      release: () => Promise.resolve(),
    };
    const handler = createWebhookHandler({
      secret: SECRET,
      logger,
      dedupe: failing,
      onEvent: () => {
        throw new Error('boom');
      },
    });
    expect((await handler(post(body, signed))).status).toBe(500);
    const read = post(body, signed);
    await read.text();
    expect((await handler(read)).status).toBe(500);
    expect(lines).toEqual([
      'warn bizmsg: the webhook dedupe store failed (connection refused); deliveries are handled without de-duplication until it answers again.',
      'error bizmsg: the webhook handler for message.delivered failed; answering 500 so that the service retries. Error: boom',
      `error bizmsg: ${USED_BODY}`,
    ]);
    expect([console_.mock.calls, warn.mock.calls]).toEqual([[], []]);
    expect(() => createWebhookHandler({ secret: SECRET, logger: { info: () => undefined } as never })).toThrow(
      new InvalidArgumentError(
        'createWebhookHandler: `logger` must be an object with debug, info, warn and error methods (console works).',
      ),
    );
    expect(() => webhookMiddleware({ secret: SECRET, logger: null as never })).toThrow(InvalidArgumentError);
  });

  it('logs a handler error with console.error when there is no onError', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failure = new Error('boom');
    const response = await createWebhookHandler({
      secret: SECRET,
      onEvent: () => {
        throw failure;
      },
    })(post(body, signed));
    expect(response.status).toBe(500);
    expect(log).toHaveBeenCalledWith(
      'bizmsg: the webhook handler for message.delivered failed; answering 500 so that the service retries.',
      failure,
    );
  });

  it('acknowledges an unknown event kind without calling handlers, and says so once per kind', async () => {
    const unknown = (id: number) =>
      JSON.stringify({ event: 'invoice.paid', timestamp: new Date().toISOString(), data: { id } });
    const onEvent = vi.fn();
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const handler = createWebhookHandler({ secret: SECRET, onEvent, logger });
    for (const id of [1, 2]) {
      // One body, signed as posted: two calls of unknown() may fall in two milliseconds.
      const payload = unknown(id);
      const response = await handler(post(payload, { 'x-service-signature': signWebhook(payload, SECRET) }));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ received: true, ignored: 'Unknown event kind "invoice.paid".' });
    }
    expect(onEvent).not.toHaveBeenCalled();
    expect(logger.warn.mock.calls).toEqual([
      ['bizmsg: acknowledged a verified event of a kind bizmsg does not know ("invoice.paid"); no handler ran.'],
    ]);
  });

  it('answers 413 to a body over the cap and 405 to other methods', async () => {
    const handler = createWebhookHandler({ secret: SECRET, maxBodyBytes: 100 });
    expect((await handler(post(body, signed))).status).toBe(413);
    expect((await handler(new Request('https://x.test/', { method: 'GET' }))).status).toBe(405);
  });

  it('stops reading a streamed body at the cap: 413 at once, the rest of the stream cancelled', async () => {
    let cancelled = false;
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1024;
        controller.enqueue(new Uint8Array(1024));
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request('https://hooks.example.test/bizmsg', {
      method: 'POST',
      body: endless,
      headers: signed,
      duplex: 'half',
    } as RequestInit);
    const response = await createWebhookHandler({ secret: SECRET, maxBodyBytes: 4096 })(request);
    expect([response.status, (await response.json()).error, cancelled, sent <= 8192]).toEqual([
      413,
      'payload_too_large',
      true,
      true,
    ]);
  });

  it('answers 400 when the body cannot be read to its end (the client went away), rather than throwing', async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body.slice(0, 20)));
        controller.error(new Error('aborted'));
      },
    });
    const onEvent = vi.fn();
    const request = new Request('https://hooks.example.test/bizmsg', {
      method: 'POST',
      body: broken,
      headers: signed,
      duplex: 'half',
    } as RequestInit);
    const response = await createWebhookHandler({ secret: SECRET, onEvent })(request);
    expect([response.status, await response.json(), onEvent.mock.calls.length]).toEqual([
      400,
      { error: 'unreadable_body', message: 'The request body could not be read to its end: aborted.' },
      0,
    ]);
  });

  it.each([
    ['read the body', (request: Request) => request.text()],
    ['locked the body with a reader', (request: Request) => request.body!.getReader()],
  ])(
    "answers 500 naming the fix, and logs it, when the receiver already %s (its mistake, not the sender's)",
    async (_, touch) => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const onEvent = vi.fn();
      const onError = vi.fn();
      const request = post(body, signed);
      await touch(request);
      const response = await createWebhookHandler({ secret: SECRET, onEvent, onError })(request);
      expect([response.status, await response.json()]).toEqual([500, { error: 'handler_failed', message: USED_BODY }]);
      expect([onEvent.mock.calls.length, onError.mock.calls.length]).toEqual([0, 0]);
      expect(log.mock.calls).toEqual([[`bizmsg: ${USED_BODY}`]]);
    },
  );

  it('refuses an on option that is no object of handlers by kind, or names a kind bizmsg does not know', () => {
    const kinds =
      'message.received, message.sent, message.delivered, message.read, message.failed, conversation.created, conversation.closed, contact.created, contact.updated, campaign.completed';
    for (const [on, shown] of [
      [5, '5'],
      ['str', '"str"'],
      [[() => undefined], 'an array'],
      [null, 'null'],
    ] as const)
      expect(() => createWebhookHandler({ secret: SECRET, on: on as never })).toThrow(
        new InvalidArgumentError(
          `createWebhookHandler: on must be an object of handlers by event kind, e.g. { 'message.delivered': (event) => {} }, got ${shown}.`,
        ),
      );
    // A misspelt kind would acknowledge its events unhandled: refused when the receiver is made.
    for (const make of [createWebhookHandler, webhookMiddleware])
      expect(() => make({ secret: SECRET, on: { 'message.delivred': () => undefined } as never })).toThrow(
        new InvalidArgumentError(
          `${make.name}: on["message.delivred"] names no event kind, so it would never run; the kinds are ${kinds}.`,
        ),
      );
    expect(() => createWebhookHandler({ secret: SECRET, on: { 'message.sent': undefined } })).not.toThrow();
  });

  it('rejects bad options when created', () => {
    expect(() => createWebhookHandler({ secret: SECRET, on: { 'message.sent': 'x' as never } })).toThrow(
      'createWebhookHandler: on["message.sent"] must be a function, got "x".',
    );
    for (const name of ['onEvent', 'onError', 'onDrift', 'dedupeKey'])
      expect(() => createWebhookHandler({ secret: SECRET, [name]: 42 })).toThrow(
        `createWebhookHandler: ${name} must be a function, got 42.`,
      );
    expect(() => createWebhookHandler({ secret: SECRET, dedupeKey: 7n as never })).toThrow(
      'createWebhookHandler: dedupeKey must be a function, got 7n.',
    );
    expect(() => createWebhookHandler({ secret: SECRET, dedupeKey: (10n ** 60n) as never })).toThrow(
      `createWebhookHandler: dedupeKey must be a function, got ${'1' + '0'.repeat(39)}…n.`,
    );
    expect(() => createWebhookHandler({ secret: SECRET, maxBodyBytes: 0 })).toThrow(
      'createWebhookHandler: maxBodyBytes must be a positive integer.',
    );
    expect(() => createWebhookHandler({ secret: '' })).toThrow(
      "createWebhookHandler needs the endpoint's signing secret",
    );
    expect(() => webhookMiddleware({ secret: SECRET, maxAgeSeconds: -1 })).toThrow(
      'webhookMiddleware: maxAgeSeconds must be a positive number of seconds, or false to turn the check off, got -1.',
    );
  });
});

describe('webhookMiddleware (node:http and Express)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  /** `listener` may return a promise (webhookMiddleware's never rejects), as node:http ignores it. */
  async function listen(
    listener: ((...args: Parameters<RequestListener>) => unknown) | express.Express,
  ): Promise<string> {
    server = createServer(listener as RequestListener);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  }

  it('serves node:http directly, reading the raw body itself', async () => {
    const seen: string[] = [];
    const url = await listen(webhookMiddleware({ secret: SECRET, onEvent: (e) => void seen.push(e.event) }));
    const ok = await fetch(url, { method: 'POST', body, headers: signed });
    expect([ok.status, await ok.json()]).toEqual([200, { received: true, event: 'message.delivered' }]);
    const bad = await fetch(url, { method: 'POST', body: `${body} `, headers: signed });
    expect(bad.status).toBe(401);
    expect(seen).toEqual(['message.delivered']);
  });

  it('caps the body size while streaming', async () => {
    const url = await listen(webhookMiddleware({ secret: SECRET, maxBodyBytes: 64 }));
    const response = await fetch(url, { method: 'POST', body: 'x'.repeat(10_000), headers: signed });
    expect(response.status).toBe(413);
  });

  describe.each([
    ['node:http', (middleware: WebhookMiddleware) => middleware],
    ['Express', (middleware: WebhookMiddleware) => express().post('/webhooks', middleware)],
  ])('over one keep-alive connection (%s)', (_, mount) => {
    let agent: Agent;
    afterEach(() => agent.destroy());

    async function setUp(seen: string[]): Promise<string> {
      agent = new Agent({ keepAlive: true, maxSockets: 1 });
      return listen(
        mount(
          webhookMiddleware({
            secret: SECRET,
            maxBodyBytes: 1000,
            onEvent: (e) => void seen.push(e.event),
          }),
        ),
      );
    }

    it.each([
      // Larger than one socket read, so the receiver stops in the middle of the body.
      ['chunked', { chunks: Array.from({ length: 8 }, () => 'x'.repeat(16 * 1024)) }],
      ['with a Content-Length', { whole: 'x'.repeat(128 * 1024) }],
    ])(
      'answers 413 to a body over the cap sent %s, and the next delivery on the same connection gets its 200',
      async (__, oversized) => {
        const seen: string[] = [];
        const url = await setUp(seen);
        const tooLarge = await deliver(agent, url, oversized, signed);
        expect([tooLarge.status, JSON.parse(tooLarge.body).error, tooLarge.connection]).toEqual([
          413,
          'payload_too_large',
          'keep-alive',
        ]);
        const next = await deliver(agent, url, { whole: body }, signed, 3000);
        expect([next.status, next.reused, seen]).toEqual([200, true, ['message.delivered']]);
      },
    );

    it('closes the connection cleanly after a body far over the cap, and the next delivery gets its 200 on a new one', async () => {
      const seen: string[] = [];
      const url = await setUp(seen);
      // Over the 1 MiB that a receiver reads past the cap to keep the connection.
      const huge = Array.from({ length: 40 }, () => 'x'.repeat(64 * 1024));
      const tooLarge = await deliver(agent, url, { chunks: huge }, signed);
      expect([tooLarge.status, tooLarge.connection]).toEqual([413, 'close']);
      const next = await deliver(agent, url, { whole: body }, signed, 3000);
      expect([next.status, next.reused, seen]).toEqual([200, false, ['message.delivered']]);
    });
  });

  it('works in Express as a route handler, and after express.raw() or express.text()', async () => {
    const app = express();
    const seen: string[] = [];
    app.post('/webhooks', webhookMiddleware({ secret: SECRET, onEvent: (e) => void seen.push(`plain ${e.event}`) }));
    app.post(
      '/raw',
      express.raw({ type: 'application/json' }),
      webhookMiddleware({ secret: SECRET, onEvent: (e) => void seen.push(`raw ${e.event}`) }),
    );
    app.post(
      '/text',
      express.text({ type: 'application/json' }),
      webhookMiddleware({ secret: SECRET, onEvent: (e) => void seen.push(`text ${e.event}`) }),
    );
    const url = await listen(app);
    expect((await fetch(url, { method: 'POST', body, headers: signed })).status).toBe(200);
    expect((await fetch(url.replace('/webhooks', '/raw'), { method: 'POST', body, headers: signed })).status).toBe(200);
    expect((await fetch(url.replace('/webhooks', '/text'), { method: 'POST', body, headers: signed })).status).toBe(
      200,
    );
    expect(
      (await fetch(url.replace('/webhooks', '/text'), { method: 'POST', body: `${body} `, headers: signed })).status,
    ).toBe(401);
    expect(seen).toEqual(['plain message.delivered', 'raw message.delivered', 'text message.delivered']);
  });

  it('fails loudly, naming the fix, when express.json() already parsed the body', async () => {
    const app = express();
    app.use(express.json());
    app.post('/webhooks', webhookMiddleware({ secret: SECRET }));
    const errors: string[] = [];
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      errors.push(error.message);
      res.status(500).json({ error: 'misconfigured' });
    });
    const url = await listen(app);
    const response = await fetch(url, { method: 'POST', body, headers: signed });
    expect(response.status).toBe(500);
    expect(errors).toEqual([
      "webhookMiddleware needs the raw request body, but a body parser already turned req.body into a parsed object, so the bytes the signature covers are gone. Mount the webhook route before express.json(), or give it express.raw({ type: 'application/json' }).",
    ]);
  });
});
