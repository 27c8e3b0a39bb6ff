import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { redisDedupeStore } from '../../src/redis/index.js';
import { createWebhookHandler, InvalidArgumentError, signWebhook } from '../../src/webhooks/index.js';
import { EVENT_DATA } from '../helpers/event-samples.js';
import { REDIS_LIBRARIES, type TestRedisClient } from '../helpers/redis-clients.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

const SECRET = 'whsec_redis_dedupe';
const HOUR = 3_600_000;

let server: RedisServer;

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

describe.each(Object.keys(REDIS_LIBRARIES) as Array<keyof typeof REDIS_LIBRARIES>)(
  'redisDedupeStore on %s',
  (library) => {
    let redis: TestRedisClient;

    beforeAll(async () => {
      redis = await REDIS_LIBRARIES[library](server.url);
    });
    afterEach(async () => {
      await redis.command(['FLUSHALL']);
    });
    afterAll(async () => {
      await redis?.close();
    });

    it('claims with SET NX PX for claimTtl, keeps a done mark for ttl, releases only its own claim', async () => {
      const store = redisDedupeStore(redis.redis, { claimTtl: 60_000 });
      expect(await store.claim('evt', 'one')).toBe('claimed');
      expect(await redis.command(['GET', 'bizmsg:dedupe:evt'])).toBe('one');
      expect(Number(await redis.command(['PTTL', 'bizmsg:dedupe:evt']))).toBeGreaterThan(59_000);
      expect(await store.claim('evt', 'two')).toBe('in-progress');
      await store.release('evt', 'two');
      expect(await store.claim('evt', 'three')).toBe('in-progress');
      await store.complete('evt', 'one');
      expect(await store.claim('evt', 'four')).toBe('done');
      const ttl = Number(await redis.command(['PTTL', 'bizmsg:dedupe:evt']));
      expect(ttl).toBeGreaterThan(48 * HOUR - 60_000);
      expect(ttl).toBeLessThanOrEqual(48 * HOUR);
      await store.release('evt', 'one');
      expect(await store.claim('evt', 'five')).toBe('done');
    });

    it('a failed handler gives the key back', async () => {
      const store = redisDedupeStore(redis.redis, { prefix: 'hooks:' });
      expect(await store.claim('evt', 'one')).toBe('claimed');
      await store.release('evt', 'one');
      expect(await redis.command(['EXISTS', 'hooks:evt'])).toBe(0);
      expect(await store.claim('evt', 'two')).toBe('claimed');
    });

    it('lets exactly one of 50 concurrent claims win', async () => {
      const store = redisDedupeStore(redis.redis);
      const claims = await Promise.all(Array.from({ length: 50 }, (_, i) => store.claim('race', `t${i}`)));
      expect(claims.filter((c) => c === 'claimed')).toHaveLength(1);
      expect(claims.filter((c) => c === 'in-progress')).toHaveLength(49);
    });

    it('loads its scripts again after Redis forgot them (NOSCRIPT)', async () => {
      const store = redisDedupeStore(redis.redis);
      expect(await store.claim('a', 't')).toBe('claimed');
      await redis.command(['SCRIPT', 'FLUSH']);
      expect(await store.claim('b', 't')).toBe('claimed');
      await store.release('b', 't');
      expect(await redis.command(['EXISTS', 'bizmsg:dedupe:b'])).toBe(0);
    });

    it('behind createWebhookHandler, 20 copies at once run the handler once: the others get 503, later copies 200', async () => {
      let calls = 0;
      // The copy that runs is held until the 19 others are answered: they all meet it in progress.
      let answered = 0;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const handler = createWebhookHandler({
        secret: SECRET,
        dedupe: redisDedupeStore(redis.redis),
        onEvent: async () => {
          calls += 1;
          await held;
        },
      });
      const body = JSON.stringify({
        event: 'message.read',
        timestamp: new Date().toISOString(),
        data: EVENT_DATA['message.read'],
      });
      const post = () =>
        handler(
          new Request('https://hooks.test/', {
            method: 'POST',
            body,
            headers: { 'x-service-signature': signWebhook(body, SECRET) },
          }),
        );
      const copies = Array.from({ length: 20 }, () =>
        post().then((response) => {
          if (++answered === 19) release();
          return response.status;
        }),
      );
      const statuses = (await Promise.all(copies)).sort();
      expect(statuses).toEqual([200, ...Array(19).fill(503)]);
      expect((await post()).status).toBe(200);
      expect(calls).toBe(1);
    });
  },
);

describe('redisDedupeStore options', () => {
  const fake = { sendCommand: async () => 'OK' };

  it('warns once about a ttl shorter than the redeliveries, and checks its options', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    redisDedupeStore(fake, { ttl: 24 * HOUR });
    expect(warn.mock.calls).toEqual([
      [
        "bizmsg: redisDedupeStore keeps deliveries 24.0 h, less than the service's redeliveries span (26.6 h): a copy redelivered after that is handled again.",
      ],
    ]);
    expect(() => redisDedupeStore(fake, { claimTtl: 1.5 })).toThrow(
      new InvalidArgumentError(
        'redisDedupeStore: `claimTtl` must be a whole number of milliseconds from 1 to 31536000000, got 1.5.',
      ),
    );
    expect(() => redisDedupeStore(fake, { prefix: 1 as never })).toThrow(
      new InvalidArgumentError('redisDedupeStore: `prefix` must be a string, got 1.'),
    );
    expect(() => redisDedupeStore(null as never)).toThrow(
      new InvalidArgumentError(
        'redisDedupeStore needs an ioredis client (new Redis()) or a node-redis client (createClient()).',
      ),
    );
  });
});

describe('redisDedupeStore while Redis is down', () => {
  it('handles deliveries anyway (at least once) with one warning, and de-duplicates again once Redis is back', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const redis = await REDIS_LIBRARIES.ioredis(server.url);
    let calls = 0;
    const handler = createWebhookHandler({
      secret: SECRET,
      dedupe: redisDedupeStore(redis.redis, { timeout: 200 }),
      onEvent: () => {
        calls += 1;
      },
    });
    const body = JSON.stringify({
      event: 'message.read',
      timestamp: new Date().toISOString(),
      data: { ...EVENT_DATA['message.read'], message_id: 'msg_2' },
    });
    const post = () =>
      handler(
        new Request('https://hooks.test/', {
          method: 'POST',
          body,
          headers: { 'x-service-signature': signWebhook(body, SECRET) },
        }),
      );
    try {
      await server.kill();
      expect([(await post()).status, (await post()).status]).toEqual([200, 200]);
      expect(calls).toBe(2);
      expect(warn.mock.calls).toEqual([
        [
          'bizmsg: the webhook dedupe store failed (Redis did not answer EVALSHA within 200 ms); deliveries are handled without de-duplication until it answers again.',
        ],
      ]);
      await server.restart();
      await vi.waitFor(async () => expect(await redis.command(['PING'])).toBe('PONG'), {
        timeout: 10_000,
        interval: 200,
      });
      expect([(await post()).status, (await post()).status]).toEqual([200, 200]);
      expect(calls).toBe(3);
    } finally {
      await redis.close();
    }
  });
});
