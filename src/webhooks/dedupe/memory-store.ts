// A DedupeStore in this process's memory.
import { InvalidArgumentError } from '../../shared/errors.js';
import { showValue } from '../../shared/describe.js';
import { ExpiringMap } from '../../shared/expiring-map.js';
import { DEDUPE_DEFAULTS, dedupeTimes, type DedupeClaim, type DedupeStore, type DedupeStoreOptions } from './store.js';

/** Options of `memoryDedupeStore`. */
export interface MemoryDedupeStoreOptions extends DedupeStoreOptions {
  /** Most deliveries remembered (default 100,000); past it the oldest are forgotten first. */
  max?: number | undefined;
}

const DONE = 'done';
/** Most deliveries remembered when the options say nothing. */
const DEFAULT_MAX = 100_000;

/**
 * A `DedupeStore` in this process's memory, bounded to `max` keys: for a single receiver
 * instance (several instances need a shared store such as `redisDedupeStore`).
 */
export function memoryDedupeStore(options: MemoryDedupeStoreOptions = {}): DedupeStore {
  const { ttl, claimTtl } = dedupeTimes(options, 'memoryDedupeStore');
  const max = options.max ?? DEFAULT_MAX;
  if (!Number.isInteger(max) || max < 1)
    throw new InvalidArgumentError(`memoryDedupeStore: \`max\` must be a positive integer, got ${showValue(max)}.`);
  return new MemoryDedupe(ttl, claimTtl, max);
}

/**
 * What `memoryDedupeStore()` gives, for the receivers' default: built without reading options it
 * has none of, so that a receiver bundled alone carries no option checks of the store's (figure 1).
 */
export function defaultMemoryDedupeStore(): DedupeStore {
  return new MemoryDedupe(DEDUPE_DEFAULTS.ttl, DEDUPE_DEFAULTS.claimTtl, DEFAULT_MAX);
}

/** Each key's value: `done`, or the token of the claim that holds it. */
class MemoryDedupe implements DedupeStore {
  readonly #entries: ExpiringMap<string>;
  readonly #ttl: number;
  readonly #claimTtl: number;

  constructor(ttl: number, claimTtl: number, max: number) {
    this.#ttl = ttl;
    this.#claimTtl = claimTtl;
    this.#entries = new ExpiringMap(max);
  }

  claim(key: string, token: string): Promise<DedupeClaim> {
    return Promise.resolve(this.#claimNow(key, token));
  }

  complete(key: string): Promise<void> {
    this.#entries.set(key, DONE, this.#ttl);
    return Promise.resolve();
  }

  release(key: string, token: string): Promise<void> {
    if (this.#entries.get(key) === token) this.#entries.delete(key);
    return Promise.resolve();
  }

  #claimNow(key: string, token: string): DedupeClaim {
    const value = this.#entries.get(key);
    if (value !== undefined) return value === DONE ? 'done' : 'in-progress';
    this.#entries.set(key, token, this.#claimTtl);
    return 'claimed';
  }
}
