// A StatusStore in this process's memory: the status tracker's default.
import { showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { ExpiringMap } from '../../shared/expiring-map.js';
import { mergeRecord, type StatusChange, type StatusRecord } from './record.js';
import { countStatuses, statusTtl, type StatusStore, type StatusStoreOptions, type StatusSummary } from './store.js';

/** Options of `memoryStatusStore`. */
export interface MemoryStatusStoreOptions extends StatusStoreOptions {
  /** Most messages followed (default 100,000); past it the least recently changed are forgotten first. */
  max?: number | undefined;
}

/**
 * A `StatusStore` in this process's memory, bounded to `max` records kept `ttl` ms each: for
 * one process (a receiver in another process needs a shared store such as `redisStatusStore`).
 */
export function memoryStatusStore(options: MemoryStatusStoreOptions = {}): StatusStore {
  const ttl = statusTtl(options, 'memoryStatusStore');
  const max = options.max ?? 100_000;
  if (!Number.isInteger(max) || max < 1)
    throw new InvalidArgumentError(`memoryStatusStore: \`max\` must be a positive integer, got ${showValue(max)}.`);
  return new MemoryStatusStore(ttl, max);
}

class MemoryStatusStore implements StatusStore {
  readonly #records: ExpiringMap<StatusRecord>;
  readonly #ttl: number;
  readonly #listeners = new Map<string, Set<(record: StatusRecord) => void>>();

  constructor(ttl: number, max: number) {
    this.#ttl = ttl;
    this.#records = new ExpiringMap(max);
  }

  merge(change: StatusChange): Promise<StatusRecord> {
    const { record, changed } = mergeRecord(this.#records.get(change.id), change);
    if (changed) {
      this.#records.set(change.id, record, this.#ttl);
      for (const listener of this.#listeners.get(change.id) ?? []) listener(copy(record));
    }
    return Promise.resolve(copy(record));
  }

  get(id: string): Promise<StatusRecord | undefined> {
    const record = this.#records.get(id);
    return Promise.resolve(record === undefined ? undefined : copy(record));
  }

  summary(ids?: readonly string[]): Promise<StatusSummary> {
    const records = ids === undefined ? this.#records.values() : ids.map((id) => this.#records.get(id));
    return Promise.resolve(countStatuses(Array.from(records, (record) => record?.status)));
  }

  watch(id: string, listener: (record: StatusRecord) => void): Promise<() => void> {
    const listeners = this.#listeners.get(id) ?? new Set();
    this.#listeners.set(id, listeners.add(listener));
    return Promise.resolve(() => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners.get(id) === listeners) this.#listeners.delete(id);
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A copy for the caller, so that changing it does not change the store. */
function copy(record: StatusRecord): StatusRecord {
  return record.error === undefined ? { ...record } : { ...record, error: { ...record.error } };
}
