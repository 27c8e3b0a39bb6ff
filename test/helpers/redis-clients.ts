import { Redis } from 'ioredis';
import { createClient } from 'redis';
import type { RedisClientLike } from '../../src/redis/index.js';

/** A connected client of one of the two libraries, and how to close it. */
export interface TestRedisClient {
  redis: RedisClientLike;
  /** Sends a raw command (for assertions on what Redis holds). */
  command(args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

/** Both client libraries `bizmsg/redis` supports, by name. */
export const REDIS_LIBRARIES = {
  ioredis: async (url: string): Promise<TestRedisClient> => {
    const redis = new Redis(url, { lazyConnect: true });
    // While the server is down ioredis reports each reconnection attempt as an error event.
    redis.on('error', () => undefined);
    // Connected and past its ready check (an INFO) before use: an INFO still on its way when another
    // connection turns to MONITOR reaches that one as a line it did not expect (ioredis then fails
    // with "Command queue state error", once in CI).
    await redis.connect();
    return {
      redis,
      command: ([name, ...args]) => redis.call(name!, ...args),
      close: async () => void redis.disconnect(),
    };
  },
  'node-redis': async (url: string): Promise<TestRedisClient> => {
    const redis = createClient({ url });
    // node-redis throws from its 'error' event when nobody listens (a killed server).
    redis.on('error', () => undefined);
    await redis.connect();
    return { redis, command: (args) => redis.sendCommand(args), close: async () => void redis.destroy() };
  },
};
