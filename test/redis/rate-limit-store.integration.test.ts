import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  RateLimitExceededError,
  Variant2Client,
  type ClientOptions,
  type Logger,
} from '../../src/index.js';
import { startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { redisRateLimitStore } from '../../src/redis/index.js';
import { startTestServer } from '../helpers/http-server.js';
import { REDIS_LIBRARIES, type TestRedisClient } from '../helpers/redis-clients.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

const KEY = 'bm_live_shared_key_0123456789';
const LIMIT = 10;
const WINDOW_MS = 2000;

let server: RedisServer;
let mock: MockHttpServer;

beforeAll(async () => {
  server = await startRedisServer();
  mock = await startMockHttpServer({
    variant: 2,
    plans: { small: { rateLimit: LIMIT, window: WINDOW_MS } },
    keys: [{ key: KEY, plan: 'small' }],
  });
});
afterAll(async () => {
  await mock?.close();
  await server?.stop();
});

/** A log that keeps every line, by level. */
function recordingLogger() {
  const lines: Array<{ level: string; message: string }> = [];
  const logger: Logger = {
    debug: (message) => lines.push({ level: 'debug', message }),
    info: (message) => lines.push({ level: 'info', message }),
    warn: (message) => lines.push({ level: 'warn', message }),
    error: (message) => lines.push({ level: 'error', message }),
  };
  return { logger, storeLines: () => lines.filter((line) => line.message.includes('rate-limit store')) };
}

/** A client whose responses' statuses are recorded. */
function countingClient(options: ClientOptions) {
  const statuses: number[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    statuses.push(response.status);
    return response;
  };
  return { client: new Variant2Client({ maxRetries: 10, ...options, fetch }), statuses };
}

/** `sends` calls from `callers` concurrent callers. */
async function run(client: Variant2Client, sends: number, callers: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < sends) {
        next += 1;
        await client.account.me();
      }
    }),
  );
}

describe.each(Object.keys(REDIS_LIBRARIES) as Array<keyof typeof REDIS_LIBRARIES>)(
  'redisRateLimitStore on %s',
  (library) => {
    let redis: TestRedisClient;

    beforeAll(async () => {
      redis = await REDIS_LIBRARIES[library](server.url);
    });
    afterEach(async () => {
      await redis.command(['FLUSHALL']);
      mock.mock.reset();
    });
    afterAll(async () => {
      await redis?.close();
    });

    it('keeps three clients on one key within one budget: no 429, the key only as its SHA-256', async () => {
      const monitor = await REDIS_LIBRARIES[library](server.url);
      const seen: string[] = [];
      const stopMonitor = await watchCommands(library, monitor, seen);
      const clients = Array.from({ length: 3 }, () =>
        countingClient({ apiKey: KEY, baseUrl: mock.baseUrl, rateLimitStore: redisRateLimitStore(redis.redis) }),
      );
      await Promise.all(clients.map(({ client }) => run(client, 12, 6)));
      await stopMonitor();
      await monitor.close();

      const statuses = clients.flatMap((c) => c.statuses);
      expect(statuses.filter((status) => status === 429)).toEqual([]);
      expect(statuses).toHaveLength(36);
      const hash = createHash('sha256').update(KEY).digest('hex');
      const keys = (await redis.command(['KEYS', '*'])) as string[];
      expect(keys).toContain(`bizmsg:rate:{${hash}}`);
      expect(keys.filter((key) => !key.startsWith(`bizmsg:rate:{${hash}}`))).toEqual([]);
      expect(seen.length).toBeGreaterThan(36);
      expect(seen.filter((line) => line.includes(KEY))).toEqual([]);
      expect(seen.some((line) => line.includes(hash))).toBe(true);
    });

    it('lets a X-RateLimit-Remaining seen by one client hold the others until the reset', async () => {
      const reset = Math.ceil(Date.now() / 1000) + 2;
      const arrivals: number[] = [];
      // Someone else used the key's budget up: every answer says none is left until the reset.
      const api = await startTestServer((_, res) => {
        arrivals.push(Date.now());
        res.writeHead(200, {
          'content-type': 'application/json',
          'x-ratelimit-limit': '100',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(reset),
        });
        res.end('{"data":{"id":1}}');
      });
      const store = redisRateLimitStore(redis.redis);
      const first = new Variant2Client({ apiKey: KEY, baseUrl: api.baseUrl, rateLimitStore: store });
      const second = new Variant2Client({ apiKey: KEY, baseUrl: api.baseUrl, rateLimitStore: store });
      await first.account.me();
      await second.account.me();
      await api.close();
      expect(arrivals).toHaveLength(2);
      expect(arrivals[1]!).toBeGreaterThanOrEqual(reset * 1000 - 50);
    });

    it("holds every client for a 429's own Retry-After, not for an older window's reset", async () => {
      const farReset = Math.ceil(Date.now() / 1000) + 50;
      const arrivals: Array<{ at: number; client: string }> = [];
      let answered = 0;
      const api = await startTestServer((request, res) => {
        arrivals.push({ at: Date.now(), client: String(request.headers['x-client']) });
        answered += 1;
        // The window ends 50 s from now; then a 429 says none is left in it, yet asks for 1 s only.
        const window = { 'x-ratelimit-limit': '100', 'x-ratelimit-reset': String(farReset) };
        if (answered === 1)
          res.writeHead(200, { 'content-type': 'application/json', ...window, 'x-ratelimit-remaining': '90' });
        else if (answered === 2)
          res.writeHead(429, {
            'content-type': 'application/json',
            ...window,
            'x-ratelimit-remaining': '0',
            'retry-after': '1',
          });
        else res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          answered === 2
            ? '{"error":{"code":"RATE_LIMIT_EXCEEDED","message":"slow down","details":{}}}'
            : '{"data":{"id":1}}',
        );
      });
      const store = redisRateLimitStore(redis.redis);
      const a = new Variant2Client({
        apiKey: KEY,
        baseUrl: api.baseUrl,
        rateLimitStore: store,
        headers: { 'x-client': 'a' },
      });
      const b = new Variant2Client({
        apiKey: KEY,
        baseUrl: api.baseUrl,
        rateLimitStore: store,
        headers: { 'x-client': 'b' },
      });
      await a.account.me();
      const limited = await a.account.me({ maxRetries: 0 }).catch((error: unknown) => error);
      const pausedAt = Date.now();
      await b.account.me();
      await api.close();
      expect(limited).toBeInstanceOf(RateLimitExceededError);
      const fromB = arrivals.find((arrival) => arrival.client === 'b')!;
      expect(fromB.at - pausedAt).toBeGreaterThanOrEqual(900);
      expect(fromB.at - pausedAt).toBeLessThan(10_000);
    });

    it("never holds clients longer than maxRetryWait for a 429's wait", async () => {
      let answered = 0;
      const arrivals: number[] = [];
      const api = await startTestServer((_, res) => {
        arrivals.push(Date.now());
        answered += 1;
        res.writeHead(answered === 1 ? 429 : 200, {
          'content-type': 'application/json',
          'retry-after': answered === 1 ? '3600' : '0',
        });
        res.end(
          answered === 1
            ? '{"error":{"code":"RATE_LIMIT_EXCEEDED","message":"slow down","details":{}}}'
            : '{"data":{"id":1}}',
        );
      });
      const store = redisRateLimitStore(redis.redis);
      const a = new Variant2Client({ apiKey: KEY, baseUrl: api.baseUrl, rateLimitStore: store, maxRetryWait: 1500 });
      const b = new Variant2Client({ apiKey: KEY, baseUrl: api.baseUrl, rateLimitStore: store, maxRetryWait: 1500 });
      const error = await a.account.me().catch((e: unknown) => e);
      const started = Date.now();
      await b.account.me();
      await api.close();
      expect(error).toBeInstanceOf(RateLimitExceededError);
      expect((error as RateLimitExceededError).retryAfter).toBe(3600);
      expect(arrivals[1]! - started).toBeGreaterThanOrEqual(1300);
      expect(arrivals[1]! - started).toBeLessThan(10_000);
    });

    it('paces alone with one warning while Redis is down, and shares again once it is back', async () => {
      const { logger, storeLines } = recordingLogger();
      const { client, statuses } = countingClient({
        apiKey: KEY,
        baseUrl: mock.baseUrl,
        rateLimitStore: redisRateLimitStore(redis.redis),
        logLevel: 'info',
        logger,
      });
      await run(client, 5, 5);
      await server.kill();
      const started = Date.now();
      await run(client, 25, 5);
      // 25 calls at 10 per 2 s: about 5 s paced locally, never held for Redis.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(storeLines()).toEqual([
        {
          level: 'warn',
          message: expect.stringMatching(
            /^bizmsg: the rate-limit store failed \(.+\); each process paces itself alone until the store answers again$/,
          ),
        },
      ]);
      await server.restart();
      for (let tries = 0; tries < 40 && storeLines().length < 2; tries++) await client.account.me();
      expect(storeLines().map((line) => line.level)).toEqual(['warn', 'info']);
      expect(storeLines()[1]!.message).toBe('bizmsg: the rate-limit store answers again; the budget is shared again');
      expect(await redis.command(['EXISTS', `bizmsg:rate:{${createHash('sha256').update(KEY).digest('hex')}}`])).toBe(
        1,
      );
      expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
      expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(30);
    });

    it('does not wait on a Redis that stops answering: each call waits at most the timeout', async () => {
      const { logger, storeLines } = recordingLogger();
      const { client, statuses } = countingClient({
        apiKey: KEY,
        baseUrl: mock.baseUrl,
        rateLimitStore: redisRateLimitStore(redis.redis, { timeout: 200 }),
        logLevel: 'warn',
        logger,
      });
      await client.account.me();
      server.freeze();
      try {
        const started = Date.now();
        await run(client, 8, 4);
        expect(Date.now() - started).toBeLessThan(8000);
      } finally {
        server.thaw();
      }
      expect(statuses).toEqual(Array(9).fill(200));
      expect(storeLines()).toHaveLength(1);
      expect(storeLines()[0]!.message).toContain('did not answer EVALSHA within 200 ms');
    });
  },
);

describe('rateLimitStore option', () => {
  it('must be a store, and cannot go with rateLimit: false', () => {
    const base = { apiKey: KEY, baseUrl: 'https://api.bizmsg.test/api/v1' };
    expect(() => new Variant2Client({ ...base, rateLimitStore: {} as never })).toThrow(
      new InvalidArgumentError(
        'The `rateLimitStore` option must have acquire, release and pause methods, e.g. redisRateLimitStore(redis) from bizmsg/redis.',
      ),
    );
    const store = redisRateLimitStore({ sendCommand: async () => 0 });
    expect(() => new Variant2Client({ ...base, rateLimitStore: store, rateLimit: false })).toThrow(
      new InvalidArgumentError(
        'The `rateLimitStore` option shares pacing, which `rateLimit: false` turns off: drop one of them.',
      ),
    );
  });

  it('redisRateLimitStore names what it needs', () => {
    expect(() => redisRateLimitStore({} as never)).toThrow(
      new InvalidArgumentError(
        'redisRateLimitStore needs an ioredis client (new Redis()) or a node-redis client (createClient()).',
      ),
    );
    expect(() => redisRateLimitStore({ sendCommand: async () => 0 }, { timeout: 0 })).toThrow(
      new InvalidArgumentError(
        'redisRateLimitStore: `timeout` must be a number of milliseconds from 1 to 60000, got 0.',
      ),
    );
  });
});

/** Records every command Redis receives (MONITOR) until the returned function is called. */
async function watchCommands(library: string, client: TestRedisClient, seen: string[]): Promise<() => Promise<void>> {
  if (library === 'ioredis') {
    const monitor = await (client.redis as import('ioredis').Redis).monitor();
    monitor.on('monitor', (_time: string, args: string[]) => seen.push(args.join(' ')));
    return async () => void monitor.disconnect();
  }
  const redis = client.redis as ReturnType<typeof import('redis').createClient>;
  await redis.monitor((line: string) => seen.push(line));
  return async () => undefined;
}
