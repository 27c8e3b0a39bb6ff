// Hands each result of a run to its `results()` readers. A reader behind by a bounded buffer holds
// the run back (it reads no more recipients) but never stops what is under way, so no wait on a
// reader can stall the run for good; a reader that starts after the run reads it from the journal.
import type { BulkResult } from './types.js';

/** Results a reader may be behind before the run waits for it. */
const HIGH_WATER = 256;

/** One reader that started during the run: its buffered results, and its pending `next()`. */
interface Reader {
  readonly buffer: BulkResult[];
  wake?: (() => void) | undefined;
}

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/** The readers of one run's results. */
export class ResultChannel {
  readonly #readers = new Set<Reader>();
  readonly #fromJournal: () => AsyncIterable<BulkResult>;
  readonly #onRoom: () => void;
  #ended: { failure: { error: unknown } | undefined } | undefined;

  /**
   * `fromJournal` gives the run's results once it has ended; `onRoom` is called whenever a reader
   * reads or leaves (the run may go on).
   */
  constructor(fromJournal: () => AsyncIterable<BulkResult>, onRoom: () => void) {
    this.#fromJournal = fromJournal;
    this.#onRoom = onRoom;
  }

  /** Gives `result` to every reader; never waits (the run asks `hasRoom` before reading on). */
  push(result: BulkResult): void {
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
   * journal's once it has ended (the whole job's), the run's failure if it failed.
   */
  read(): AsyncIterableIterator<BulkResult> {
    let reader: Reader | undefined;
    let journal: AsyncIterator<BulkResult> | undefined;
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
      } else journal = this.#fromJournal()[Symbol.asyncIterator]();
    };
    const iterator: AsyncIterableIterator<BulkResult> = {
      next: async () => {
        if (finished) return DONE;
        if (reader === undefined && journal === undefined) start();
        if (journal !== undefined) {
          const next = await journal.next();
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
        await journal?.return?.();
        return DONE;
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }
}
