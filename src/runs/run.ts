// Run: what a job of many requests returns (sendBulk, contacts.sync). Awaitable for its report,
// with progress events and each item's result.
import type { ProgressListener, RunWork } from './work.js';

/**
 * A job under way: `await` it for its report; `on('progress', p => …)` after each item's result;
 * `results()` streams each item's result (a reader that falls behind holds the run back rather
 * than piling them up; read after the run, it gives them all).
 */
export class Run<Report, Result, Progress> implements PromiseLike<Report> {
  readonly #done: Promise<Report>;
  readonly #work: RunWork<Result, Progress>;

  /** @internal The job starts the run and hands over its parts. */
  constructor(done: Promise<Report>, work: RunWork<Result, Progress>) {
    // The caller awaits the run (or reads its results, which throw the same failure).
    done.catch(() => undefined);
    this.#done = done;
    this.#work = work;
  }

  /** Resolves with the report once every item read has its outcome; rejects with what stopped the run. */
  then<A = Report, B = never>(
    onFulfilled?: ((report: Report) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#done.then(onFulfilled, onRejected);
  }

  /** Calls `listener` with the progress after each item's outcome. */
  on(event: 'progress', listener: ProgressListener<Progress>): this {
    if (event === 'progress') this.#work.listeners.add(listener);
    return this;
  }

  /** Stops calling `listener`. */
  off(event: 'progress', listener: ProgressListener<Progress>): this {
    if (event === 'progress') this.#work.listeners.delete(listener);
    return this;
  }

  /**
   * Each item's result: while the run goes, from the first `next()` on, in the order they end, at
   * the reader's pace (break out of the loop to stop reading); after the run, all of them; the
   * run's error if it failed.
   */
  results(): AsyncIterableIterator<Result> {
    return this.#work.channel.read();
  }
}
