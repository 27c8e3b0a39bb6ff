// The plug-in interface of webhook de-duplication, and the times every store takes.
import { hours, REDELIVERY_SPAN_MS } from '../../contract/webhooks.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { hasMethods } from '../../shared/guards.js';
import { checkLogger, type Logger } from '../../shared/logger.js';
import { checkMs } from '../../shared/timers.js';

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

/** Times (ms) every dedupe store takes, and where it warns. */
export interface DedupeStoreOptions {
  /**
   * How long a handled delivery is remembered, in ms (default 48 h). The service redelivers
   * for about 26.6 h after the first attempt (1 m + 5 m + 30 m + 2 h + 24 h), so a shorter
   * ttl is warned about.
   */
  ttl?: number | undefined;
  /**
   * How long a claim holds while its handler runs, in ms (default 5 minutes): copies arriving
   * meanwhile get 503. If the process dies mid-handler, the next copy after this is handled.
   */
  claimTtl?: number | undefined;
  /**
   * Where the store's warning goes (a ttl shorter than the redeliveries).
   * @default console
   */
  logger?: Logger | undefined;
}

// Written as literals: a bundle keeps a top-level product of two constants (a bundler may not fold
// it), and verifyWebhookAsync bundled alone must carry none of this (figure 1).
/** A dedupe store's times when its options give none. */
export const DEDUPE_DEFAULTS = { ttl: 172_800_000 /* 48 h */, claimTtl: 300_000 } as const;
/** The longest time a store keeps anything: a year, in whole ms. */
const TIME_RANGE = { min: 1, max: 31_536_000_000 /* 365 days */, integer: true };

/** The checked times of a dedupe store's options; a ttl shorter than the redeliveries is warned about once. */
export function dedupeTimes(options: DedupeStoreOptions, caller: string): { ttl: number; claimTtl: number } {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError(`${caller}: options must be an object, e.g. { ttl }.`);
  const ttl = checkMs(`${caller}: \`ttl\``, options.ttl, DEDUPE_DEFAULTS.ttl, TIME_RANGE);
  const claimTtl = checkMs(`${caller}: \`claimTtl\``, options.claimTtl, DEDUPE_DEFAULTS.claimTtl, TIME_RANGE);
  const logger = checkLogger(options.logger, `${caller}: \`logger\``);
  if (ttl < REDELIVERY_SPAN_MS) {
    logger.warn(
      `bizmsg: ${caller} keeps deliveries ${hours(ttl)}, less than the service's redeliveries span (${hours(REDELIVERY_SPAN_MS)}): ` +
        'a copy redelivered after that is handled again.',
    );
  }
  return { ttl, claimTtl };
}

const METHODS = ['claim', 'complete', 'release'] as const;

/** True when `value` has every method of a `DedupeStore`. */
export function isDedupeStore(value: unknown): value is DedupeStore {
  return hasMethods(value, METHODS);
}
