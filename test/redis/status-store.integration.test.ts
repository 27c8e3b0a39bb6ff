import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { redisStatusStore } from '../../src/redis/index.js';
import {
  createStatusTracker,
  InvalidArgumentError,
  MessageFailedError,
  type StatusTracker,
  type WebhookEvent,
} from '../../src/webhooks/index.js';
import { REDIS_LIBRARIES, type TestRedisClient } from '../helpers/redis-clients.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { applyAll, newsInTwoOrders } from '../helpers/status-events.js';

let server: RedisServer;

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

const event = (kind: string, id: string, timestamp: string, data: Record<string, unknown> = {}) =>
  ({ event: kind, timestamp, data: { message_id: id, to: '4915112345678', ...data } }) as WebhookEvent;

/** Client connections Redis holds, by name of the command they last ran. */
async function subscribers(redis: TestRedisClient): Promise<number> {
  const list = String(await redis.command(['CLIENT', 'LIST']));
  return list.split('\n').filter((line) => /cmd=(subscribe|ssubscribe)\b/.test(line)).length;
}

describe.each(Object.keys(REDIS_LIBRARIES) as Array<keyof typeof REDIS_LIBRARIES>)(
  'redisStatusStore on %s',
  (library) => {
    // Two connections, as two processes would have: one receives, the other sent and waits.
    let receiving: TestRedisClient;
    let sending: TestRedisClient;
    const trackers: StatusTracker[] = [];
    const tracker = (client: TestRedisClient, options = {}) => {
      const made = createStatusTracker({ store: redisStatusStore(client.redis, options) });
      trackers.push(made);
      return made;
    };

    beforeAll(async () => {
      receiving = await REDIS_LIBRARIES[library](server.url);
      sending = await REDIS_LIBRARIES[library](server.url);
    });
    afterEach(async () => {
      await Promise.all(trackers.splice(0).map((t) => t.close()));
      await receiving.command(['FLUSHALL']);
    });
    afterAll(async () => {
      await receiving?.close();
      await sending?.close();
    });

    it('keeps one JSON record per message for the ttl, merged by the same rule as in memory', async () => {
      const t = tracker(receiving, { ttl: 3_600_000 });
      await t.track({ id: 'msg_1', to: '+4915112345678', status: 'sent', created_at: '2026-11-22T10:00:00Z' });
      await t.apply(event('message.read', 'msg_1', '2026-11-22T10:00:05Z'));
      const record = await t.apply(event('message.delivered', 'msg_1', '2026-11-22T10:00:01Z'));
      const expected = {
        id: 'msg_1',
        to: '+4915112345678',
        status: 'read',
        sentAt: '2026-11-22T10:00:00.000Z',
        deliveredAt: '2026-11-22T10:00:01.000Z',
        readAt: '2026-11-22T10:00:05.000Z',
      };
      expect(record).toEqual(expected);
      expect(JSON.parse(String(await receiving.command(['GET', 'bizmsg:status:msg_1'])))).toEqual(expected);
      const ttl = Number(await receiving.command(['PTTL', 'bizmsg:status:msg_1']));
      expect(ttl).toBeGreaterThan(3_500_000);
      expect(ttl).toBeLessThanOrEqual(3_600_000);
      const failed = await t.apply(
        event('message.failed', 'msg_2', '2026-11-22T10:00:02Z', {
          error_code: 470,
          error_message: 'Outside the window',
        }),
      );
      expect(failed).toEqual({
        id: 'msg_2',
        to: '4915112345678',
        status: 'failed',
        failedAt: '2026-11-22T10:00:02.000Z',
        error: { code: '470', message: 'Outside the window' },
      });
      expect(await t.summary()).toEqual({ total: 2, sent: 0, delivered: 0, read: 1, failed: 1, unknown: 0 });
      expect(await t.summary(['msg_2', 'msg_x'])).toEqual({
        total: 2,
        sent: 0,
        delivered: 0,
        read: 0,
        failed: 1,
        unknown: 1,
      });
    });

    it('a waitFor on one connection hears what a tracker on another applied, and closes its subscription', async () => {
      const receiver = tracker(receiving);
      const sender = tracker(sending);
      await sender.track({ id: 'msg_3', to: '4915112345678' });
      const delivered = sender.waitFor('msg_3', 'delivered', { timeout: 5000 });
      const failedFirst = sender.waitFor('msg_4', 'read', { timeout: 5000 }).catch((e: unknown) => e);
      // Both are listening once the store's one subscription reached Redis.
      await vi.waitFor(async () => expect(await subscribers(receiving)).toBe(1), { timeout: 5000, interval: 10 });
      await receiver.apply(event('message.delivered', 'msg_3', '2026-11-22T10:00:01Z'));
      await receiver.apply(event('message.failed', 'msg_4', '2026-11-22T10:00:01Z', { reason: 'blocked' }));
      expect(await delivered).toMatchObject({
        id: 'msg_3',
        status: 'delivered',
        deliveredAt: '2026-11-22T10:00:01.000Z',
      });
      const error = await failedFirst;
      expect(error).toBeInstanceOf(MessageFailedError);
      expect((error as MessageFailedError).record.error).toEqual({ message: 'blocked' });
      await sender.close();
      await vi.waitFor(async () => expect(await subscribers(receiving)).toBe(0), { timeout: 5000, interval: 10 });
    });

    it('racing receivers never move a status back', async () => {
      const [a, b] = [tracker(receiving), tracker(sending)];
      const kinds = ['message.sent', 'message.delivered', 'message.read'];
      await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          (i % 2 ? a : b).apply(event(kinds[i % 3]!, `race_${i % 5}`, `2026-11-22T10:00:0${i % 3}Z`)),
        ),
      );
      expect(await a.summary(['race_0', 'race_1', 'race_2', 'race_3', 'race_4'])).toMatchObject({ read: 5 });
    });

    it('any order of any subset of a message news ends in the same record, as in memory', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(newsInTwoOrders('msg_p'), async ([first, second]) => {
          run += 1;
          const [x, y, memory] = [
            tracker(receiving, { prefix: `p${run}a:` }),
            tracker(receiving, { prefix: `p${run}b:` }),
            createStatusTracker(),
          ];
          await applyAll(x, first);
          await applyAll(y, second);
          await applyAll(memory, first);
          const record = await x.get('msg_p');
          expect(await y.get('msg_p')).toEqual(record);
          expect(record).toEqual(await memory.get('msg_p'));
        }),
        { numRuns: 40 },
      );
    });

    it('a waitFor still hears an apply after Redis restarted under its subscription', { timeout: 20_000 }, async () => {
      const [receiver, sender] = [tracker(receiving), tracker(sending)];
      const waiting = sender.waitFor('msg_5', 'read', { timeout: 15_000 });
      await vi.waitFor(async () => expect(await subscribers(receiving)).toBe(1), { timeout: 5000, interval: 10 });
      await server.kill();
      await server.restart();
      const started = Date.now();
      // The receiving client reconnects on its own; until it has, an apply fails (the service would retry).
      for (;;) {
        const applied = await receiver
          .apply(event('message.read', 'msg_5', '2026-11-22T10:00:05Z'))
          .catch(() => undefined);
        if (applied !== undefined) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await waiting).toMatchObject({ id: 'msg_5', status: 'read' });
      // Heard on the resubscribed connection, not at the final read of its timeout.
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it('rejects a client without duplicate() and bad options', () => {
      expect(() => redisStatusStore({ call: async () => null })).toThrow(InvalidArgumentError);
      expect(() => redisStatusStore(receiving.redis, { ttl: 0 })).toThrow(InvalidArgumentError);
    });
  },
);

describe('redisStatusStore when Redis stops answering', () => {
  it('rejects an apply within its timeout, so that a receiver answers 500 and the service retries', async () => {
    const client = await REDIS_LIBRARIES.ioredis(server.url);
    const t = createStatusTracker({ store: redisStatusStore(client.redis, { timeout: 200 }) });
    try {
      server.freeze();
      const started = Date.now();
      await expect(t.apply(event('message.sent', 'msg_f', '2026-11-22T10:00:00Z'))).rejects.toThrow(
        'Redis did not answer EVALSHA within 200 ms',
      );
      // Redis never answers: the apply did not wait for it. A late timer on a loaded machine takes
      // a few hundred ms more at most; 5 s is still far from waiting on a Redis that stays frozen.
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      server.thaw();
      await t.close();
      await client.close();
    }
  });
});
