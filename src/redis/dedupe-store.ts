// A webhook DedupeStore in Redis, shared by every receiver instance.
import { dedupeTimes, type DedupeClaim, type DedupeStore, type DedupeStoreOptions } from '../webhooks/dedupe/store.js';
import { evalScript, luaScript, type RedisClientLike, storeConnection } from './commands.js';

/** Options of `redisDedupeStore`. */
export interface RedisDedupeStoreOptions extends DedupeStoreOptions {
  /** Prefix of the store's Redis keys (default `bizmsg:dedupe:`). */
  prefix?: string | undefined;
  /** Longest one Redis call may take, in ms (default 500); after it the delivery is handled without de-duplication. */
  timeout?: number | undefined;
}

const DONE = 'done';

/** SET NX PX claims the key; if it is taken, the holder's value says whether it is done. */
const CLAIM = luaScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 'claimed' end
if redis.call('GET', KEYS[1]) == '${DONE}' then return 'done' end
return 'in-progress'
`);

/** Deletes the key only if it still holds this claim: never another copy's claim, never a done mark. */
const RELEASE = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

/**
 * A webhook `DedupeStore` in Redis, shared by every receiver instance (the `dedupe` option of
 * `createWebhookHandler` and `webhookMiddleware`): a claim is one atomic `SET NX PX`, a
 * handled delivery is kept `ttl` ms (default 48 h).
 */
export function redisDedupeStore(redis: RedisClientLike, options: RedisDedupeStoreOptions = {}): DedupeStore {
  const caller = 'redisDedupeStore';
  const { ttl, claimTtl } = dedupeTimes(options, caller);
  const { send, prefix } = storeConnection(redis, options, 'bizmsg:dedupe:', caller);
  return {
    async claim(key, token) {
      return (await evalScript(send, CLAIM, [prefix + key], [token, claimTtl])) as DedupeClaim;
    },
    async complete(key) {
      await send(['SET', prefix + key, DONE, 'PX', String(ttl)]);
    },
    async release(key, token) {
      await evalScript(send, RELEASE, [prefix + key], [token]);
    },
  };
}
