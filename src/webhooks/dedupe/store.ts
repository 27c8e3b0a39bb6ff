import { showValue } from '../../shared/describe.js';
import { hasMethods } from '../../core/has-methods.js';

/** What a claim found: the key is now ours, another copy holds it, or a copy was handled. */
export type DedupeClaim = 'claimed' | 'in-progress' | 'done';

/**
 * Where webhook receivers record which deliveries they handled, so that each is handled once
 * across redeliveries and instances (`memoryDedupeStore`, or `redisDedupeStore` from
 * `bizmsg/redis`). Each call should answer within a second or two.
 */
export interface DedupeStore {
  /**
   * Claims `key` for the copy about to be handled, under the name `token`. Atomic: while a
   * claim holds (until completed, released, or its claim time runs out), other claims of the
   * key answer 'in-progress', and after `complete` they answer 'done'.
   */
  claim(key: string, token: string): Promise<DedupeClaim>;
  /** Records that the copy holding claim `token` was handled; later copies answer 'done' for the store's ttl. */
  complete(key: string, token: string): Promise<void>;
  /** Drops claim `token` (its handler failed), so that the next copy is handled; another's claim stays. */
  release(key: string, token: string): Promise<void>;
}

/** Times (ms) every dedupe store takes. */
export interface DedupeStoreOptions {
  /**
   * How long a handled delivery is remembered, in ms (default 48 h). The service redelivers
   * for about 26.6 h (1 m + 5 m + 30 m + 2 h + 24 h), so a shorter ttl is warned about.
   */
  ttl?: number;
  /**
   * How long a claim holds while its handler runs, in ms (default 5 minutes): copies arriving
   * meanwhile get 503. If the process dies mid-handler, the next copy after this is handled.
   */
  claimTtl?: number;
}

const HOUR_MS = 3_600_000;
/** The service's redeliveries span 1 m + 5 m + 30 m + 2 h + 24 h after the first attempt. */
const REDELIVERY_SPAN_MS = 60_000 + 300_000 + 1_800_000 + 2 * HOUR_MS + 24 * HOUR_MS;
const DEFAULTS = { ttl: 48 * HOUR_MS, claimTtl: 300_000 };
const MAX_MS = 365 * 24 * HOUR_MS;

/** The checked times of a dedupe store's options; a ttl shorter than the redeliveries is warned about once. */
export function dedupeTimes(options: DedupeStoreOptions, caller: string): Required<DedupeStoreOptions> {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`${caller}: options must be an object, e.g. { ttl }.`);
  const ttl = checkMs(options.ttl, DEFAULTS.ttl, 'ttl', caller);
  const claimTtl = checkMs(options.claimTtl, DEFAULTS.claimTtl, 'claimTtl', caller);
  if (ttl < REDELIVERY_SPAN_MS) {
    console.warn(
      `bizmsg: ${caller} keeps deliveries ${(ttl / HOUR_MS).toFixed(1)} h, less than the service's redeliveries span (26.6 h): ` +
        'a copy redelivered after that is handled again.',
    );
  }
  return { ttl, claimTtl };
}

function checkMs(value: unknown, fallback: number, name: string, caller: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_MS) {
    throw new TypeError(
      `${caller}: ${name} must be a whole number of ms from 1 to ${MAX_MS} (a year), got ${showValue(value)}.`,
    );
  }
  return value;
}

const METHODS = ['claim', 'complete', 'release'] as const;

/** True when `value` has every method of a `DedupeStore`. */
export function isDedupeStore(value: unknown): value is DedupeStore {
  return hasMethods(value, METHODS);
}
