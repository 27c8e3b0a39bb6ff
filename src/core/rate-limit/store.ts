// The plug-in interface of a rate-limit budget shared across processes (bizmsg/redis implements it).
import { hasMethods } from '../../shared/guards.js';

/**
 * The `X-RateLimit-*` values of a response as a shared budget takes them in; times are
 * milliseconds on the service's clock, as the client estimates it from the `Date` header.
 */
export interface ObservedWindow {
  /** Requests allowed per window (`X-RateLimit-Limit`). */
  readonly limit: number;
  /** Requests left in the window (`X-RateLimit-Remaining`). */
  readonly remaining: number;
  /** The window's `X-RateLimit-Reset` (Unix seconds): the window's identity. */
  readonly reset: number;
  /** When the window ends (ms), the reset bounded to a minute from now. */
  readonly resetAt: number;
}

/**
 * A rate-limit budget shared by every client that sends with one API key, in any process
 * (`redisRateLimitStore` from `bizmsg/redis` keeps it in Redis). `key` is a SHA-256 hash of
 * the API key, never the key itself; `now` and every other time are milliseconds on the
 * service's clock as the calling client estimates it. Each call should answer well within 2 s:
 * a client whose store fails or is slower paces itself alone until the store answers.
 */
export interface RateLimitStore {
  /**
   * Takes a slot for one request that is about to be sent, in flight under `lease` until
   * `release`: resolves with 0 when the slot is taken, else with the milliseconds to wait
   * before asking again.
   */
  acquire(key: string, lease: string, now: number): Promise<number>;
  /**
   * Marks the request holding `lease` as answered or failed, taking in the `X-RateLimit-*`
   * values of its response (any status) when it had them.
   */
  release(key: string, lease: string, now: number, seen: ObservedWindow | undefined): Promise<void>;
  /** Holds every request on the key until `until`: a 429 asked for that wait. */
  pause(key: string, until: number, now: number): Promise<void>;
}

const METHODS = ['acquire', 'release', 'pause'] as const;

/** True when `value` has every method of a `RateLimitStore`. */
export function isRateLimitStore(value: unknown): value is RateLimitStore {
  return hasMethods(value, METHODS);
}
