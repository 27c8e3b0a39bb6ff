// A RateLimitStore in Redis, shared by every client and process on one API key.
import type { ObservedWindow, RateLimitStore } from '../core/rate-limit/store.js';
import { evalScript, type RedisClientLike, type SendCommand, storeConnection } from './commands.js';
import { LEASE_MS, RATE_LIMIT_SCRIPT } from './rate-limit-script.js';

/** Options of `redisRateLimitStore`. */
export interface RedisRateLimitStoreOptions {
  /** Prefix of the store's Redis keys (default `bizmsg:rate:`); the rest is a hash of the API key. */
  prefix?: string | undefined;
  /** Longest one Redis call may take, in ms (default 500); after it the client paces itself alone. */
  timeout?: number | undefined;
}

/**
 * A rate-limit budget in Redis, shared by every client and process that sends with one API
 * key (`rateLimitStore` client option). Each step is one atomic Lua script (EVALSHA); the
 * API key never reaches Redis, only its SHA-256.
 */
export function redisRateLimitStore(redis: RedisClientLike, options: RedisRateLimitStoreOptions = {}): RateLimitStore {
  const caller = 'redisRateLimitStore';
  const { send, prefix } = storeConnection(redis, options, 'bizmsg:rate:', caller);
  return {
    async acquire(key, lease, now) {
      return Number(await run(send, prefix, key, ['acquire', now, lease, LEASE_MS]));
    },
    async release(key, lease, now, seen: ObservedWindow | undefined) {
      const window = seen === undefined ? [] : [seen.limit, seen.remaining, seen.reset, seen.resetAt];
      await run(send, prefix, key, ['release', now, lease, ...window]);
    },
    async pause(key, until, now) {
      await run(send, prefix, key, ['pause', now, until]);
    },
  };
}

/** Runs one operation of the script on the key's budget; its keys share a hash tag (one cluster slot). */
function run(send: SendCommand, prefix: string, key: string, args: ReadonlyArray<string | number>): Promise<unknown> {
  const budget = `${prefix}{${key}}`;
  return evalScript(send, RATE_LIMIT_SCRIPT, [budget, `${budget}:leases`, `${budget}:carried`], args);
}
