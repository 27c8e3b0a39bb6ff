// Hands each result of a run to its `results()` readers. A reader behind by a bounded buffer holds
// the run back (it starts no more work) but never stops what is under way, so no wait on a reader
// can stall the run for good; a reader that starts after the run reads what the run kept (a journal, a list).

/** Results a reader may be behind before the run waits for it. */
const HIGH_WATER = 256;

/** One reader that started during the run: its buffered results, and its pending `next()`. */
interface Reader<T> {
  readonly buffer: T[];
  wake?: (() => void) | undefined;
}

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/** The readers of one run's results. */
export class ResultChannel<T> {
  readonly #readers = new Set<Reader<T>>();
  readonly #afterRun: () => AsyncIterable<T> | Iterable<T>;
  readonly #onRoom: () => void;
  #ended: { failure: { error: unknown } | undefined } | undefined;

  /**
   * `afterRun` gives the run's results once it has ended; `onRoom` is called whenever a reader
   * reads or leaves (the run may go on).
   */
  constructor(afterRun: () => AsyncIterable<T> | Iterable<T>, onRoom: () => void) {
    this.#afterRun = afterRun;
    this.#onRoom = onRoom;
  }

  /** Gives `result` to every reader; never waits (the run asks `hasRoom` before reading on). */
  push(result: T): void {
    for (const reader of this.#readers) {
      reader.buffer.push(result);
      reader.wake?.();
    }
  }

  /** True when no reader is behind by the whole buffer. */
  hasRoom(): boolean {
    for (const reader of this.#readers) if (reader.buffer.length >= HIGH_WATER) return false;
    return true;
  }

  /** No more results: readers finish (or throw `failure`) once they have read what is buffered. */
  end(failure?: { error: unknown }): void {
    this.#ended = { failure };
    for (const reader of this.#readers) reader.wake?.();
  }

  /**
   * A reader of the results from its first `next()` on: pushed ones while the run goes, the
   * run's kept ones once it has ended, the run's failure if it failed.
   */
  read(): AsyncIterableIterator<T> {
    let reader: Reader<T> | undefined;
    let kept: AsyncIterator<T> | Iterator<T> | undefined;
    let finished = false;
    const leave = () => {
      finished = true;
      if (reader !== undefined) this.#readers.delete(reader);
      this.#onRoom();
    };
    const start = () => {
      if (this.#ended === undefined) this.#readers.add((reader = { buffer: [] }));
      else if (this.#ended.failure !== undefined) {
        finished = true;
        throw this.#ended.failure.error;
      } else {
        const source = this.#afterRun();
        kept = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
      }
    };
    const iterator: AsyncIterableIterator<T> = {
      next: async () => {
        if (finished) return DONE;
        if (reader === undefined && kept === undefined) start();
        if (kept !== undefined) {
          const next = await kept.next();
          finished = next.done === true;
          return next;
        }
        const live = reader!;
        while (live.buffer.length === 0 && this.#ended === undefined)
          await new Promise<void>((resolve) => (live.wake = resolve));
        const value = live.buffer.shift();
        this.#onRoom();
        if (value !== undefined) return { value, done: false };
        leave();
        if (this.#ended?.failure !== undefined) throw this.#ended.failure.error;
        return DONE;
      },
      return: async () => {
        leave();
        await kept?.return?.();
        return DONE;
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }
}
