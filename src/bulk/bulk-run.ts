// BulkRun: what sendBulk returns. Awaitable for the report, with progress events and the results.
import type { ResultChannel } from './result-channel.js';
import type { BulkProgress, BulkReport, BulkResult } from './types.js';

/** A listener of a run's `progress` events. */
export type BulkProgressListener = (progress: BulkProgress) => void;

/**
 * A bulk send under way: `await` it for the `BulkReport`; `on('progress', p => …)` after each
 * recipient; `results()` streams each recipient's `BulkResult` (a reader that falls behind holds
 * the run back rather than piling them up; read after the run, it gives the whole job's).
 */
export class BulkRun implements PromiseLike<BulkReport> {
  /** The job's id. */
  readonly id: string;
  readonly #done: Promise<BulkReport>;
  readonly #channel: ResultChannel;
  readonly #listeners: Set<BulkProgressListener>;

  /** @internal sendBulk starts the run and hands over its parts. */
  constructor(id: string, done: Promise<BulkReport>, channel: ResultChannel, listeners: Set<BulkProgressListener>) {
    this.id = id;
    this.#done = done;
    this.#channel = channel;
    this.#listeners = listeners;
  }

  /** Resolves with the report once every recipient read has its outcome; rejects when the journal fails or refuses the job. */
  then<A = BulkReport, B = never>(
    onFulfilled?: ((report: BulkReport) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#done.then(onFulfilled, onRejected);
  }

  /** Calls `listener` with the progress after each recipient's outcome. */
  on(event: 'progress', listener: BulkProgressListener): this {
    if (event === 'progress') this.#listeners.add(listener);
    return this;
  }

  /** Stops calling `listener`. */
  off(event: 'progress', listener: BulkProgressListener): this {
    if (event === 'progress') this.#listeners.delete(listener);
    return this;
  }

  /**
   * Each recipient's result: while the run goes, from the first `next()` on, in the order they end
   * (earlier runs' outcomes included on resume), at the reader's pace (break out of the loop to
   * stop reading); after the run, the whole job's, read from the journal; the run's error if it failed.
   */
  results(): AsyncIterableIterator<BulkResult> {
    return this.#channel.read();
  }
}
