// A DedupeStore in this process's memory.
import { InvalidArgumentError } from '../../shared/errors.js';
import { showValue } from '../../shared/describe.js';
import { dedupeTimes, type DedupeClaim, type DedupeStore, type DedupeStoreOptions } from './store.js';

/** Options of `memoryDedupeStore`. */
export interface MemoryDedupeStoreOptions extends DedupeStoreOptions {
  /** Most deliveries remembered (default 100,000); past it the oldest are forgotten first. */
  max?: number;
}

const DONE = 'done';

/** One remembered key: `done`, or the token of the claim that holds it, until `expires` (ms). */
interface Entry {
  value: string;
  expires: number;
}

/**
 * A `DedupeStore` in this process's memory, bounded to `max` keys: for a single receiver
 * instance (several instances need a shared store such as `redisDedupeStore`).
 */
export function memoryDedupeStore(options: MemoryDedupeStoreOptions = {}): DedupeStore {
  const { ttl, claimTtl } = dedupeTimes(options, 'memoryDedupeStore');
  const max = options.max ?? 100_000;
  if (!Number.isInteger(max) || max < 1)
    throw new InvalidArgumentError(`memoryDedupeStore: \`max\` must be a positive integer, got ${showValue(max)}.`);
  return new MemoryDedupe(ttl, claimTtl, max);
}

/** Keys in insertion order (a Map keeps it), so that the oldest is always first to go. */
class MemoryDedupe implements DedupeStore {
  readonly #entries = new Map<string, Entry>();
  readonly #ttl: number;
  readonly #claimTtl: number;
  readonly #max: number;

  constructor(ttl: number, claimTtl: number, max: number) {
    this.#ttl = ttl;
    this.#claimTtl = claimTtl;
    this.#max = max;
  }

  claim(key: string, token: string): Promise<DedupeClaim> {
    return Promise.resolve(this.#claimNow(key, token));
  }

  complete(key: string): Promise<void> {
    this.#set(key, DONE, this.#ttl);
    return Promise.resolve();
  }

  release(key: string, token: string): Promise<void> {
    if (this.#entries.get(key)?.value === token) this.#entries.delete(key);
    return Promise.resolve();
  }

  #claimNow(key: string, token: string): DedupeClaim {
    const entry = this.#live(key);
    if (entry !== undefined) return entry.value === DONE ? 'done' : 'in-progress';
    this.#set(key, token, this.#claimTtl);
    return 'claimed';
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || entry.expires > Date.now()) return entry;
    this.#entries.delete(key);
    return undefined;
  }

  #set(key: string, value: string, ttl: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expires: Date.now() + ttl });
    this.#dropOldest();
  }

  /** Drops expired keys at the front, then the oldest ones beyond `max`. */
  #dropOldest(): void {
    const now = Date.now();
    for (const [key, entry] of this.#entries) {
      if (entry.expires > now && this.#entries.size <= this.#max) break;
      this.#entries.delete(key);
    }
  }
}
