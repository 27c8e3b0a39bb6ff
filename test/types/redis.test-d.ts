import { type Cluster, Redis } from 'ioredis';
import { type createClient } from 'redis';
import { describe, expectTypeOf, it } from 'vitest';
import { Variant2Client, type RateLimitStore } from '../../src/index.js';
import { redisDedupeStore, redisRateLimitStore, type RedisClientLike } from '../../src/redis/index.js';
import { createWebhookHandler, memoryDedupeStore, type DedupeStore } from '../../src/webhooks/index.js';

describe('bizmsg/redis types', () => {
  it('takes ioredis and node-redis clients as they are', () => {
    expectTypeOf<Redis>().toExtend<RedisClientLike>();
    expectTypeOf<Cluster>().toExtend<RedisClientLike>();
    expectTypeOf<ReturnType<typeof createClient>>().toExtend<RedisClientLike>();
    expectTypeOf(redisRateLimitStore).returns.toEqualTypeOf<RateLimitStore>();
    expectTypeOf(redisDedupeStore).returns.toEqualTypeOf<DedupeStore>();
  });

  it('plugs the stores into the client and the receivers', () => {
    const redis = new Redis({ lazyConnect: true });
    new Variant2Client({
      apiKey: 'k',
      baseUrl: 'https://x.test/api/v1',
      rateLimitStore: redisRateLimitStore(redis, { prefix: 'p:' }),
    });
    createWebhookHandler({
      secret: 's',
      dedupe: redisDedupeStore(redis, { ttl: 1 }),
      dedupeKey: (event) => event.timestamp,
    });
    createWebhookHandler({ secret: 's', dedupe: memoryDedupeStore({ max: 10 }) });
    // @ts-expect-error a client without call or sendCommand
    redisRateLimitStore({ get: async () => null });
  });
});
