// The newest items of a growing sequence, bounded: the request journal, delivery attempts, e-mails.

/**
 * The newest `max` items of a sequence, oldest first. A ring, so that adding one costs the same
 * however many are kept, and memory stays bounded however long the mock runs.
 */
export class Recent<T> {
  readonly #max: number;
  #items: T[] = [];
  /** Where the oldest item is, once the ring is full. */
  #start = 0;

  /** `max`: how many to keep (0 keeps none). */
  constructor(max: number) {
    this.#max = max;
  }

  /** How many are kept at most. */
  get max(): number {
    return this.#max;
  }

  /** Adds the newest item, dropping the oldest when full. */
  push(item: T): void {
    if (this.#max === 0) return;
    if (this.#items.length < this.#max) {
      this.#items.push(item);
      return;
    }
    this.#items[this.#start] = item;
    this.#start = (this.#start + 1) % this.#max;
  }

  /** The items kept, oldest first. */
  toArray(): T[] {
    return this.#start === 0
      ? [...this.#items]
      : [...this.#items.slice(this.#start), ...this.#items.slice(0, this.#start)];
  }

  /** The newest item that `matches`, if any is still kept. */
  findLast(matches: (item: T) => boolean): T | undefined {
    return this.toArray().findLast(matches);
  }

  /** Forgets everything. */
  clear(): void {
    this.#items = [];
    this.#start = 0;
  }
}
