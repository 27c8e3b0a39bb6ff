import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AbortError,
  Variant2Client,
  type Logger,
  type ObservedWindow,
  type RateLimitStore,
} from '../../../src/index.js';
import { json, scriptedFetch } from '../../helpers/scripted-fetch.js';

// Stores written against the public interface, as a user might: how the client treats any store.
// (The Redis store itself is tested on a real redis-server in test/redis/.)
const BASE = 'https://api.bizmsg.test/api/v1';
const KEY = 'bm_live_custom_store_key';
const HASH = createHash('sha256').update(KEY).digest('hex');

function logLines() {
  const lines: string[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
  return { lines: () => lines.filter((line) => line.includes('store')), logger };
}

const ok = () =>
  json(
    200,
    { data: { id: 1 } },
    {
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '42',
      'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 30),
    },
  );

/** A store that grants every slot and records every call. */
function recordingStore() {
  const calls: Array<{ method: string; args: unknown[] }> = [];
  const store: RateLimitStore = {
    acquire: async (...args) => (calls.push({ method: 'acquire', args }), 0),
    release: async (...args) => void calls.push({ method: 'release', args }),
    pause: async (...args) => void calls.push({ method: 'pause', args }),
  };
  return { store, calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a rateLimitStore', () => {
  it('is asked for a slot before each attempt and told the window when it is given back, under a hash of the key', async () => {
    const { store, calls } = recordingStore();
    const { fetch } = scriptedFetch(ok);
    const client = new Variant2Client({ apiKey: KEY, baseUrl: BASE, fetch, rateLimitStore: store });
    await client.account.me();
    await vi.waitFor(() => expect(calls.map((c) => c.method)).toEqual(['acquire', 'release']));
    const [acquire, release] = calls as unknown as [
      { args: [string, string, number] },
      { args: [string, string, number, ObservedWindow] },
    ];
    expect(acquire.args[0]).toBe(HASH);
    expect(release.args[1]).toBe(acquire.args[1]);
    expect(release.args[3]).toEqual({
      limit: 100,
      remaining: 42,
      reset: expect.any(Number),
      resetAt: release.args[3].reset * 1000,
    });
    expect(JSON.stringify(calls)).not.toContain(KEY);
  });

  it('tells the store a 429 pauses everyone for its Retry-After, bounded by maxRetryWait', async () => {
    const { store, calls } = recordingStore();
    const { fetch } = scriptedFetch(
      json(429, { error: { code: 'RATE_LIMIT_EXCEEDED', message: 'slow', details: {} } }, { 'retry-after': '120' }),
    );
    const client = new Variant2Client({
      apiKey: KEY,
      baseUrl: BASE,
      fetch,
      rateLimitStore: store,
      maxRetryWait: 5000,
      maxRetries: 0,
    });
    await client.account.me().catch(() => undefined);
    await vi.waitFor(() => expect(calls.map((c) => c.method)).toEqual(['acquire', 'pause', 'release']));
    const [, , now] = calls[0]!.args as [string, string, number];
    const [, until, pausedAt] = calls[1]!.args as [string, number, number];
    expect(until - pausedAt).toBe(5000);
    expect(pausedAt).toBeGreaterThanOrEqual(now);
    // The 429's own headers do not go to the store: its pause stands for them.
    expect(calls[2]!.args[3]).toBeUndefined();
  });

  it('waits as long as the store says, then asks again', async () => {
    let asked = 0;
    const store: RateLimitStore = { ...recordingStore().store, acquire: async () => (++asked < 3 ? 200 : 0) };
    const { fetch, requests } = scriptedFetch(ok);
    const client = new Variant2Client({ apiKey: KEY, baseUrl: BASE, fetch, rateLimitStore: store });
    const started = Date.now();
    await client.account.me();
    expect(asked).toBe(3);
    expect(requests[0]!.at - started).toBeGreaterThanOrEqual(390);
  });

  it('paces locally, warning once, when the store answers nonsense or fails; the warning never shows the key', async () => {
    const answers: Array<() => Promise<number>> = [
      async () => Number.NaN,
      () => Promise.reject(new Error(`denied for ${KEY}`)),
    ];
    let asked = 0;
    const store: RateLimitStore = { ...recordingStore().store, acquire: () => answers[asked++ % 2]!() };
    const { logger, lines } = logLines();
    const { fetch, requests } = scriptedFetch(ok);
    const client = new Variant2Client({
      apiKey: KEY,
      baseUrl: BASE,
      fetch,
      rateLimitStore: store,
      logLevel: 'warn',
      logger,
    });
    await Promise.all(Array.from({ length: 5 }, () => client.account.me()));
    expect(requests).toHaveLength(5);
    expect(lines()).toEqual([
      'warn bizmsg: the rate-limit store failed (acquire() answered NaN, not a number of ms to wait); each process paces itself alone until the store answers again',
    ]);
    // The 5 concurrent calls all asked; a second later one call asks again, and fails in the same outage.
    expect(asked).toBe(5);
    await client.account.me();
    expect(asked).toBe(5);
    // A second later, on a clock of the test's (timers stay real).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    vi.setSystemTime(Date.now() + 1100);
    await client.account.me();
    expect(asked).toBe(6);
    expect(lines()).toHaveLength(1);
    expect(lines().join('\n')).not.toContain(KEY);
  });

  it('does not hold requests for a store that never answers: 2 s at most, then local pacing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let asked!: () => void;
    const askedOnce = new Promise<void>((resolve) => (asked = resolve));
    const store: RateLimitStore = {
      ...recordingStore().store,
      acquire: () => {
        asked();
        return new Promise(() => undefined);
      },
    };
    const { fetch, requests } = scriptedFetch(ok);
    const client = new Variant2Client({ apiKey: KEY, baseUrl: BASE, fetch, rateLimitStore: store });
    let done = false;
    void client.account.me().then(() => (done = true));
    await askedOnce;
    let waited = 0;
    while (!done && waited < 5000) {
      await vi.advanceTimersByTimeAsync(100);
      await new Promise((resolve) => setImmediate(resolve));
      waited += 100;
    }
    expect(done).toBe(true);
    expect(waited).toBeGreaterThanOrEqual(2000);
    expect(waited).toBeLessThanOrEqual(2200);
    // Until the store is asked again, requests go straight out.
    await client.account.me();
    expect(requests).toHaveLength(2);
  });

  it('gives back a slot granted after the caller gave up, and rejects the caller with AbortError', async () => {
    const { store, calls } = recordingStore();
    let grant!: (wait: number) => void;
    store.acquire = (...args) => {
      calls.push({ method: 'acquire', args });
      return new Promise((resolve) => (grant = resolve));
    };
    const { fetch, requests } = scriptedFetch(ok);
    const client = new Variant2Client({ apiKey: KEY, baseUrl: BASE, fetch, rateLimitStore: store });
    const controller = new AbortController();
    const call = client.account.me({ signal: controller.signal }).catch((error: unknown) => error);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    controller.abort();
    expect(await call).toBeInstanceOf(AbortError);
    grant(0);
    await vi.waitFor(() => expect(calls.map((c) => c.method)).toEqual(['acquire', 'release']));
    expect(calls[1]!.args[1]).toBe(calls[0]!.args[1]);
    expect(requests).toHaveLength(0);
  });
});
