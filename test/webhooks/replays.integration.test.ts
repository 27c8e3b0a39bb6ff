import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import {
  createWebhookHandler,
  InvalidArgumentError,
  memoryDedupeStore,
  signWebhook,
  webhookMiddleware,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';

// What the receivers do by default with a replay (a recorded delivery sent again): one older than
// 27 h is refused, and a copy of one already handled is not handled again.

const SECRET = 'whsec_replays';
const HOUR_MS = 3_600_000;

/** A signed delivery whose timestamp is `ageMs` before now (after it, when negative). */
function delivery(ageMs: number, id = 'msg_1') {
  const timestamp = new Date(Date.now() - ageMs).toISOString();
  const body = JSON.stringify({
    event: 'message.read',
    timestamp,
    data: { message_id: id, to: '4915112345678', status: 'read', read_at: timestamp },
  });
  return { body, headers: { 'content-type': 'application/json', 'x-service-signature': signWebhook(body, SECRET) } };
}

/** A fetch receiver, and what it handled. */
function fetchReceiver(options: Partial<WebhookHandlerOptions> = {}) {
  const handled: string[] = [];
  const handle = createWebhookHandler({ secret: SECRET, onEvent: (e) => void handled.push(e.timestamp), ...options });
  const send = async ({ body, headers }: ReturnType<typeof delivery>) => {
    const response = await handle(new Request('https://hooks.example.test/', { method: 'POST', body, headers }));
    return [response.status, await response.json()] as const;
  };
  return { handled, send };
}

describe('a receiver by default', () => {
  it('refuses (401 stale) a delivery older than 27 h: the retries span 26.6 h, so only a replay is that old', async () => {
    const { handled, send } = fetchReceiver();
    const replayed = delivery(28 * HOUR_MS);
    expect(await send(replayed)).toEqual([
      401,
      {
        error: 'stale',
        message: expect.stringMatching(
          /^The event is 1008\d\d s old, older than the receivers' default maxAgeSeconds \(97200: 27 h, the service's retries and some slack\); set maxAgeSeconds, or false to turn the check off\.$/,
        ),
      },
    ]);
    expect((await send(delivery(26 * HOUR_MS)))[0]).toBe(200);
    // A timestamp ahead of this clock is not a replay (the emulator's virtual clock runs ahead once advanced).
    expect((await send(delivery(-48 * HOUR_MS)))[0]).toBe(200);
    expect(handled).toHaveLength(2);
  });

  it('handles an identical delivery once (a memory store, bounded): a copy answers 200 without the handlers', async () => {
    const { handled, send } = fetchReceiver();
    const first = delivery(0);
    expect(await send(first)).toEqual([200, { received: true, event: 'message.read' }]);
    expect(await send(first)).toEqual([200, { received: true, event: 'message.read', duplicate: true }]);
    // Another delivery of the same kind is handled.
    expect((await send(delivery(0, 'msg_2')))[0]).toBe(200);
    expect(handled).toHaveLength(2);
  });

  it('does both in webhookMiddleware too', async () => {
    const handled: string[] = [];
    const receive = webhookMiddleware({ secret: SECRET, onEvent: (e) => void handled.push(e.event) });
    const server: Server = createServer((req, res) => void receive(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const statuses = [];
      // One delivery sent twice: built twice, its timestamps could fall in two milliseconds.
      const fresh = delivery(0);
      for (const { body, headers } of [delivery(28 * HOUR_MS), fresh, fresh]) {
        const response = await fetch(url, { method: 'POST', body, headers });
        statuses.push([response.status, (await response.json()) as unknown]);
      }
      expect(statuses.map(([status]) => status)).toEqual([401, 200, 200]);
      expect(handled).toEqual(['message.read']);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('the defaults, changed', () => {
  it('maxAgeSeconds: false turns the age check off; a number checks both ways, as parseWebhook does', async () => {
    const off = fetchReceiver({ maxAgeSeconds: false });
    expect((await off.send(delivery(10 * 365 * 24 * HOUR_MS)))[0]).toBe(200);
    const five = fetchReceiver({ maxAgeSeconds: 300 });
    expect(await five.send(delivery(-HOUR_MS))).toEqual([
      401,
      { error: 'stale', message: 'The event is 3600 s in the future, outside maxAgeSeconds (300).' },
    ]);
    expect((await five.send(delivery(60_000)))[0]).toBe(200);
  });

  it('dedupe: false handles every copy; a store given replaces the memory one', async () => {
    const each = fetchReceiver({ dedupe: false });
    const copy = delivery(0);
    expect([(await each.send(copy))[0], (await each.send(copy))[0], each.handled.length]).toEqual([200, 200, 2]);
    const store = memoryDedupeStore();
    const claim = vi.spyOn(store, 'claim');
    const given = fetchReceiver({ dedupe: store, dedupeKey: (event) => event.event });
    await given.send(copy);
    expect(await given.send(delivery(0, 'msg_9'))).toEqual([
      200,
      { received: true, event: 'message.read', duplicate: true },
    ]);
    expect(claim).toHaveBeenCalledTimes(2);
  });

  it('refuses options that cannot work, naming them', () => {
    expect(() => createWebhookHandler({ secret: SECRET, maxAgeSeconds: true as never })).toThrow(
      new InvalidArgumentError(
        'createWebhookHandler: maxAgeSeconds must be a positive number of seconds, or false to turn the check off, got true.',
      ),
    );
    expect(() => webhookMiddleware({ secret: SECRET, dedupe: false, dedupeKey: (event) => event.event })).toThrow(
      new InvalidArgumentError('webhookMiddleware: dedupeKey needs de-duplication, which dedupe: false turns off.'),
    );
  });
});
