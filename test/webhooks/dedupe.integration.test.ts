import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  InvalidArgumentError,
  createWebhookHandler,
  memoryDedupeStore,
  signWebhook,
  webhookMiddleware,
  type DedupeStore,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';

const SECRET = 'whsec_dedupe';
/** When the deliveries were sent: now (the receivers refuse one older than 27 h), the same for every copy. */
const SENT_AT = new Date().toISOString();

function delivered(id: string): string {
  return JSON.stringify({
    event: 'message.delivered',
    timestamp: SENT_AT,
    data: { message_id: id, to: '4915112345678', status: 'delivered', delivered_at: '2026-11-22T10:00:00Z' },
  });
}

function post(body: string): Request {
  return new Request('https://hooks.example.test/bizmsg', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-service-signature': signWebhook(body, SECRET) },
  });
}

/** A handler whose calls can be held open and failed from the test. */
function controlledHandler() {
  const calls: string[] = [];
  let gate: { promise: Promise<void>; release: (fail?: boolean) => void } | undefined;
  const hold = () => {
    let release!: (fail?: boolean) => void;
    const promise = new Promise<void>((resolve, reject) => {
      release = (fail) => (fail ? reject(new Error('database down')) : resolve());
    });
    gate = { promise, release };
    return gate;
  };
  const on: WebhookHandlerOptions['on'] = {
    'message.delivered': async (event) => {
      calls.push(event.data.message_id);
      if (gate !== undefined) await gate.promise;
    },
  };
  return { calls, on, hold, open: () => (gate = undefined) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('dedupe on createWebhookHandler', () => {
  it('handles a delivery once; a later copy gets 200 without the handler', async () => {
    const { calls, on } = controlledHandler();
    const handler = createWebhookHandler({ secret: SECRET, on, dedupe: memoryDedupeStore() });
    const first = await handler(post(delivered('msg_1')));
    const again = await handler(post(delivered('msg_1')));
    expect([first.status, await first.json()]).toEqual([200, { received: true, event: 'message.delivered' }]);
    expect([again.status, await again.json()]).toEqual([
      200,
      { received: true, event: 'message.delivered', duplicate: true },
    ]);
    expect(calls).toEqual(['msg_1']);
  });

  it('answers 503 with Retry-After to a copy that arrives while the first is handled', async () => {
    const { calls, on, hold } = controlledHandler();
    const handler = createWebhookHandler({ secret: SECRET, on, dedupe: memoryDedupeStore() });
    const gate = hold();
    const first = handler(post(delivered('msg_2')));
    await vi.waitFor(() => expect(calls).toEqual(['msg_2']));
    const copy = await handler(post(delivered('msg_2')));
    expect(copy.status).toBe(503);
    expect(copy.headers.get('retry-after')).toBe('60');
    expect(await copy.json()).toEqual({
      error: 'in_progress',
      message: 'Another copy of this message.delivered delivery is being handled; deliver it again later.',
    });
    gate.release();
    expect((await first).status).toBe(200);
    expect(calls).toEqual(['msg_2']);
  });

  it('releases the claim of a failed handler, so that the next copy is handled', async () => {
    const { calls, on, hold, open } = controlledHandler();
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: SECRET, on, onError, dedupe: memoryDedupeStore() });
    const gate = hold();
    const first = handler(post(delivered('msg_3')));
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    gate.release(true);
    expect((await first).status).toBe(500);
    open();
    expect((await handler(post(delivered('msg_3')))).status).toBe(200);
    expect((await handler(post(delivered('msg_3')))).status).toBe(200);
    expect(calls).toEqual(['msg_3', 'msg_3']);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('keys by the raw body unless dedupeKey says otherwise', async () => {
    const { calls, on } = controlledHandler();
    const byBody = createWebhookHandler({ secret: SECRET, on, dedupe: memoryDedupeStore() });
    const sameId = (id: string, at: string) => delivered(id).replace('"2026-11-22T10:00:00Z"', `"${at}"`);
    await byBody(post(sameId('msg_4', '2026-11-22T11:00:00Z')));
    await byBody(post(sameId('msg_4', '2026-11-22T12:00:00Z')));
    expect(calls).toEqual(['msg_4', 'msg_4']);
    const byId = createWebhookHandler({
      secret: SECRET,
      on,
      dedupe: memoryDedupeStore(),
      dedupeKey: (event) => (event.event === 'message.delivered' ? event.data.message_id : event.timestamp),
    });
    await byId(post(sameId('msg_5', '2026-11-22T11:00:00Z')));
    await byId(post(sameId('msg_5', '2026-11-22T12:00:00Z')));
    expect(calls).toEqual(['msg_4', 'msg_4', 'msg_5']);
  });

  it('fails a delivery whose dedupeKey gives no key, naming what it gave, with the handlers not run', async () => {
    const { calls, on } = controlledHandler();
    for (const [key, shown] of [
      [10n, '10n'],
      ['', '""'],
      [undefined, 'undefined'],
    ] as const) {
      const onError = vi.fn();
      const handler = createWebhookHandler({ secret: SECRET, on, onError, dedupeKey: () => key as never });
      const response = await handler(post(delivered('msg_k')));
      expect([response.status, await response.json()]).toEqual([
        500,
        { error: 'handler_failed', message: 'The handler for message.delivered failed.' },
      ]);
      expect(onError.mock.calls[0]?.[0]).toEqual(
        new InvalidArgumentError(`dedupeKey returned ${shown}, not a non-empty string.`),
      );
    }
    expect(calls).toEqual([]);
  });

  it('never claims for a delivery that fails verification', async () => {
    const store = memoryDedupeStore();
    const claim = vi.spyOn(store, 'claim');
    const handler = createWebhookHandler({ secret: SECRET, dedupe: store });
    const forged = new Request('https://hooks.example.test/bizmsg', {
      method: 'POST',
      body: delivered('msg_6'),
      headers: { 'x-service-signature': 'sha256=00' },
    });
    expect((await handler(forged)).status).toBe(401);
    expect(claim).not.toHaveBeenCalled();
  });

  it('handles deliveries without de-duplication while the store fails, warning once per outage', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { calls, on } = controlledHandler();
    let down = true;
    const memory = memoryDedupeStore();
    const flaky: DedupeStore = {
      claim: (key, token) => (down ? Promise.reject(new Error('connection refused')) : memory.claim(key, token)),
      complete: (key, token) => memory.complete(key, token),
      release: (key, token) => memory.release(key, token),
    };
    const handler = createWebhookHandler({ secret: SECRET, on, dedupe: flaky });
    expect((await handler(post(delivered('msg_7')))).status).toBe(200);
    expect((await handler(post(delivered('msg_7')))).status).toBe(200);
    expect(calls).toEqual(['msg_7', 'msg_7']);
    expect(warn.mock.calls).toEqual([
      [
        'bizmsg: the webhook dedupe store failed (connection refused); deliveries are handled without de-duplication until it answers again.',
      ],
    ]);
    down = false;
    await handler(post(delivered('msg_8')));
    await handler(post(delivered('msg_8')));
    expect(calls).toEqual(['msg_7', 'msg_7', 'msg_8']);
  });

  it('does not wait long for a store that never answers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { calls, on } = controlledHandler();
    let claimed!: () => void;
    const claimedOnce = new Promise<void>((resolve) => (claimed = resolve));
    const hung: DedupeStore = {
      claim: () => {
        claimed();
        return new Promise(() => undefined);
      },
      complete: async () => undefined,
      release: async () => undefined,
    };
    let answered: Response | undefined;
    void createWebhookHandler({ secret: SECRET, on, dedupe: hung })(post(delivered('msg_9'))).then(
      (response) => (answered = response),
    );
    await claimedOnce;
    let waited = 0;
    while (answered === undefined && waited < 5000) {
      await vi.advanceTimersByTimeAsync(100);
      await new Promise((resolve) => setImmediate(resolve));
      waited += 100;
    }
    expect(answered?.status).toBe(200);
    expect(waited).toBeGreaterThanOrEqual(2000);
    expect(waited).toBeLessThanOrEqual(2100);
    expect(calls).toEqual(['msg_9']);
  });

  it('rejects options that cannot work', () => {
    expect(() => createWebhookHandler({ secret: SECRET, dedupe: {} as DedupeStore })).toThrow(
      new InvalidArgumentError(
        'createWebhookHandler: dedupe must be a store with claim, complete and release (e.g. memoryDedupeStore()), or false.',
      ),
    );
    // Without a store, dedupeKey keys the receiver's own memory store; with dedupe: false it has nothing to key.
    expect(() => createWebhookHandler({ secret: SECRET, dedupeKey: () => 'k' })).not.toThrow();
    expect(() => createWebhookHandler({ secret: SECRET, dedupe: false, dedupeKey: () => 'k' })).toThrow(
      new InvalidArgumentError('createWebhookHandler: dedupeKey needs de-duplication, which dedupe: false turns off.'),
    );
    expect(() => memoryDedupeStore({ ttl: 0 })).toThrow(
      new InvalidArgumentError(
        'memoryDedupeStore: `ttl` must be a whole number of milliseconds from 1 to 31536000000, got 0.',
      ),
    );
    expect(() => memoryDedupeStore({ max: 0 })).toThrow(
      new InvalidArgumentError('memoryDedupeStore: `max` must be a positive integer, got 0.'),
    );
  });
});

describe('memoryDedupeStore', () => {
  it('warns once about a ttl shorter than the service redelivers', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    memoryDedupeStore({ ttl: 3_600_000 });
    memoryDedupeStore({ ttl: 27 * 3_600_000 });
    memoryDedupeStore();
    expect(warn.mock.calls).toEqual([
      [
        "bizmsg: memoryDedupeStore keeps deliveries 1.0 h, less than the service's redeliveries span (26.6 h): a copy redelivered after that is handled again.",
      ],
    ]);
  });

  it('forgets a delivery after ttl and a stuck claim after claimTtl', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    const store = memoryDedupeStore({ ttl: 100 * 3_600_000, claimTtl: 1000 });
    expect(await store.claim('a', 't1')).toBe('claimed');
    expect(await store.claim('a', 't2')).toBe('in-progress');
    vi.advanceTimersByTime(1000);
    expect(await store.claim('a', 't3')).toBe('claimed');
    await store.complete('a', 't3');
    vi.advanceTimersByTime(100 * 3_600_000 - 1);
    expect(await store.claim('a', 't4')).toBe('done');
    vi.advanceTimersByTime(1);
    expect(await store.claim('a', 't5')).toBe('claimed');
  });

  it('keeps at most max keys, dropping the oldest first', async () => {
    const store = memoryDedupeStore({ max: 3 });
    for (const key of ['a', 'b', 'c', 'd']) {
      await store.claim(key, key);
      await store.complete(key, key);
    }
    expect(await Promise.all(['b', 'c', 'd'].map((key) => store.claim(key, 'x')))).toEqual(['done', 'done', 'done']);
    expect(await store.claim('a', 'x')).toBe('claimed');
  });

  it("a release never drops another copy's claim or a done mark", async () => {
    const store = memoryDedupeStore();
    await store.claim('a', 'mine');
    await store.release('a', 'theirs');
    expect(await store.claim('a', 'theirs')).toBe('in-progress');
    await store.complete('a', 'mine');
    await store.release('a', 'mine');
    expect(await store.claim('a', 'again')).toBe('done');
  });
});

describe('exactly once, whatever the interleaving', () => {
  it('every event is handled successfully once when copies race and handlers fail', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 4 }),
        // Per handler call: whether it fails, and how many turns of the event loop it takes.
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 30 }),
        async (events, copies, calls) => {
          let call = 0;
          const handled = new Map<string, number>();
          const handler = createWebhookHandler({
            secret: SECRET,
            onError: () => undefined,
            dedupe: memoryDedupeStore(),
            on: {
              'message.delivered': async (event) => {
                const [fails, turns] = calls[call++ % calls.length]!;
                for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
                if (fails && call <= calls.length) throw new Error('flaky');
                handled.set(event.data.message_id, (handled.get(event.data.message_id) ?? 0) + 1);
              },
            },
          });
          // As the service does: a copy not answered 2xx is delivered again.
          const deliver = async (body: string) => {
            for (let attempt = 0; attempt < 1000; attempt++) {
              if ((await handler(post(body))).ok) return;
              await new Promise((resolve) => setImmediate(resolve));
            }
            throw new Error('never accepted');
          };
          const ids = Array.from({ length: events }, (_, i) => `msg_${i}`);
          await Promise.all(ids.flatMap((id) => Array.from({ length: copies }, () => deliver(delivered(id)))));
          expect([...handled.entries()].sort()).toEqual(ids.map((id) => [id, 1]).sort());
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('dedupe on webhookMiddleware', () => {
  it('answers a copy in progress with 503 and Retry-After, and a handled copy with 200', async () => {
    const { calls, on, hold } = controlledHandler();
    const middleware = webhookMiddleware({ secret: SECRET, on, dedupe: memoryDedupeStore() });
    const server = createServer((req, res) => void middleware(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const send = (body: string) =>
      fetch(url, { method: 'POST', body, headers: { 'x-service-signature': signWebhook(body, SECRET) } });
    try {
      const gate = hold();
      const first = send(delivered('msg_10'));
      await vi.waitFor(() => expect(calls).toEqual(['msg_10']));
      const copy = await send(delivered('msg_10'));
      expect([copy.status, copy.headers.get('retry-after'), copy.headers.get('content-type')]).toEqual([
        503,
        '60',
        'application/json',
      ]);
      gate.release();
      expect((await first).status).toBe(200);
      const later = await send(delivered('msg_10'));
      expect([later.status, await later.json()]).toEqual([
        200,
        { received: true, event: 'message.delivered', duplicate: true },
      ]);
      expect(calls).toEqual(['msg_10']);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
