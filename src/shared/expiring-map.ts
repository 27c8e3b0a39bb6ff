// A map bounded in size and age: what the in-memory stores keep (dedupe claims, message statuses).

/** One value and when it stops counting (ms since the epoch). */
interface Entry<V> {
  value: V;
  expires: number;
}

/**
 * A `Map` whose entries expire `ttl` ms after they were last set and which holds at most `max`
 * of them, the oldest set forgotten first. Keys stay in the order they were last set (a Map keeps
 * insertion order), so the oldest and expired ones are always at the front.
 */
export class ExpiringMap<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** The value of `key`, unless it expired (then it is dropped). */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || entry.expires > Date.now()) return entry?.value;
    this.#entries.delete(key);
    return undefined;
  }

  /** Sets `key` for `ttl` ms, as the newest key; the oldest go past `max`. */
  set(key: string, value: V, ttl: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expires: Date.now() + ttl });
    this.#dropOldest();
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** The values that have not expired. */
  *values(): IterableIterator<V> {
    const now = Date.now();
    for (const entry of this.#entries.values()) if (entry.expires > now) yield entry.value;
  }

  /** Entries held, expired ones not yet dropped included. */
  get size(): number {
    return this.#entries.size;
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
