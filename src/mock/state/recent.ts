// The newest items of a growing sequence, bounded in number and in bytes: the request journal,
// delivery attempts, e-mails.

/** The most bytes each record of the past (the journal, delivery attempts, e-mails) holds, counted as `Recent` counts them. */
const HISTORY_BYTES = 32 * 1_048_576;

/** How `Recent` counts what an item holds: its strings at two bytes a character, its bytes as they are, and a little for the rest. */
export function bytesOf(...parts: ReadonlyArray<string | Uint8Array | null | undefined>): number {
  let bytes = 256;
  for (const part of parts) bytes += typeof part === 'string' ? part.length * 2 : (part?.byteLength ?? 0);
  return bytes;
}

/**
 * The newest `max` items of a sequence, oldest first, holding at most `HISTORY_BYTES` as `sizeOf`
 * counts them (the oldest go first; the newest stays, whatever its size). Adding one costs the same
 * however many are kept, and memory stays bounded however long the mock runs.
 */
export class Recent<T> {
  readonly #max: number;
  readonly #sizeOf: (item: T) => number;
  #items: T[] = [];
  #sizes: number[] = [];
  /** Where the oldest item kept is: the ones before it were dropped. */
  #start = 0;
  #bytes = 0;

  /** `max`: how many to keep (0 keeps none); `sizeOf`: what an item holds, in bytes, counted once when it is added. */
  constructor(max: number, sizeOf: (item: T) => number) {
    this.#max = max;
    this.#sizeOf = sizeOf;
  }

  /** How many are kept at most. */
  get max(): number {
    return this.#max;
  }

  /** Adds the newest item, dropping the oldest while there are too many, or they hold too much. */
  push(item: T): void {
    if (this.#max === 0) return;
    const size = this.#sizeOf(item);
    this.#items.push(item);
    this.#sizes.push(size);
    this.#bytes += size;
    while (this.#count() > this.#max || (this.#bytes > HISTORY_BYTES && this.#count() > 1)) this.#dropOldest();
  }

  /** The items kept, oldest first. */
  toArray(): T[] {
    return this.#items.slice(this.#start);
  }

  /** The newest item that `matches`, if any is still kept. */
  findLast(matches: (item: T) => boolean): T | undefined {
    for (let i = this.#items.length - 1; i >= this.#start; i--) if (matches(this.#items[i]!)) return this.#items[i];
    return undefined;
  }

  /** Forgets everything. */
  clear(): void {
    this.#items = [];
    this.#sizes = [];
    this.#start = 0;
    this.#bytes = 0;
  }

  #count(): number {
    return this.#items.length - this.#start;
  }

  #dropOldest(): void {
    this.#bytes -= this.#sizes[this.#start]!;
    // Let go of the item at once; the arrays are compacted once half of them is dropped ones.
    (this.#items as Array<T | undefined>)[this.#start] = undefined;
    this.#start += 1;
    if (this.#start * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#start);
      this.#sizes = this.#sizes.slice(this.#start);
      this.#start = 0;
    }
  }
}
