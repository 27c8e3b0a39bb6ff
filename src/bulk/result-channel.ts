// Hands each result of a run to its `results()` readers, holding the run back while a reader is
// behind (a bounded buffer), so that results are streamed like the recipients, never piled up.
import type { BulkResult } from './types.js';

/** Results a reader may be behind before the run waits for it. */
const HIGH_WATER = 256;

/** One `results()` reader: its buffered results and who waits on whom. */
interface Reader {
  readonly buffer: BulkResult[];
  /** Resolves the reader's pending `next()`. */
  wake?: (() => void) | undefined;
  /** Resolves the run's pending `push` once the reader has room. */
  room?: (() => void) | undefined;
}

/** The readers of one run's results. */
export class ResultChannel {
  readonly #readers = new Set<Reader>();
  #ended = false;
  #failure: { error: unknown } | undefined;

  /** Gives `result` to every reader; resolves when none of them is full. */
  async push(result: BulkResult): Promise<void> {
    for (const reader of this.#readers) {
      reader.buffer.push(result);
      reader.wake?.();
      if (reader.buffer.length >= HIGH_WATER) await new Promise<void>((resolve) => (reader.room = resolve));
    }
  }

  /** No more results: readers finish (or throw `failure`) once they have read what is buffered. */
  end(failure?: unknown): void {
    this.#ended = true;
    this.#failure = failure === undefined ? undefined : { error: failure };
    for (const reader of this.#readers) reader.wake?.();
  }

  /** A new reader of the results pushed from now on. */
  read(): AsyncIterableIterator<BulkResult> {
    const reader: Reader = { buffer: [] };
    this.#readers.add(reader);
    const leave = () => {
      this.#readers.delete(reader);
      reader.room?.();
    };
    const iterator: AsyncIterableIterator<BulkResult> = {
      next: async () => {
        while (reader.buffer.length === 0 && !this.#ended)
          await new Promise<void>((resolve) => (reader.wake = resolve));
        const value = reader.buffer.shift();
        if (reader.buffer.length < HIGH_WATER) reader.room?.();
        if (value !== undefined) return { value, done: false };
        leave();
        if (this.#failure !== undefined) throw this.#failure.error;
        return { value: undefined, done: true };
      },
      return: () => {
        leave();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }
}
