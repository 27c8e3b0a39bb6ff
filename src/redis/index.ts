// bizmsg/redis: the Redis stores for many processes (named re-exports only).
export { redisRateLimitStore } from './rate-limit-store.js';
export type { RedisRateLimitStoreOptions } from './rate-limit-store.js';
export { redisDedupeStore } from './dedupe-store.js';
export type { RedisDedupeStoreOptions } from './dedupe-store.js';
export type { RedisClientLike, IoRedisLike, NodeRedisLike } from './commands.js';
export { redisStatusStore } from './status-store.js';
export type { RedisStatusStoreOptions } from './status-store.js';
// What its functions throw on a bad argument, and its root: the one declaration every entry shares.
export { BizMsgError, InvalidArgumentError } from '../shared/errors.js';
