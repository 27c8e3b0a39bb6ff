// The work of a run under way: its tasks (one per item), the wait for room to start another, the
// failure that stops it, its progress listeners and its results channel. A job (sendBulk's,
// contacts.sync's) keeps its own counts and rules; this is what every job does the same way.
import { ResultChannel } from './result-channel.js';

/** A listener of a run's `progress` events. */
export type ProgressListener<P> = (progress: P) => void;

/** The tasks, waits, failure, listeners and results of one run. */
export class RunWork<Result, Progress> {
  readonly channel: ResultChannel<Result>;
  readonly listeners = new Set<ProgressListener<Progress>>();
  readonly #tasks = new Set<Promise<void>>();
  /** Resolves the wait for room. */
  #wake: (() => void) | undefined;
  #failure: { error: unknown } | undefined;

  /** `afterRun` gives the run's results to a reader that starts after it ended. */
  constructor(afterRun: () => AsyncIterable<Result> | Iterable<Result>) {
    this.channel = new ResultChannel(afterRun, () => this.poke());
  }

  /** What stopped the run, if something did. */
  get failure(): { error: unknown } | undefined {
    return this.#failure;
  }

  /** Tasks under way. */
  get tasks(): number {
    return this.#tasks.size;
  }

  /** Tracks `task` until it settles; if it rejects, the run fails with its error. */
  start(task: Promise<void>): void {
    const tracked: Promise<void> = task
      .catch((error: unknown) => this.fail(error))
      .finally(() => {
        this.#tasks.delete(tracked);
        this.poke();
      });
    this.#tasks.add(tracked);
  }

  /** Waits until `free()` holds (asked again after each `poke`) or the run failed. */
  async room(free: () => boolean): Promise<void> {
    while (this.#failure === undefined && !free()) await new Promise<void>((resolve) => (this.#wake = resolve));
  }

  /** Something that may give room happened (a task ended, a reader read, the signal aborted). */
  poke(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** Stops the run with `error` (the first one wins). */
  fail(error: unknown): void {
    this.#failure ??= { error };
    this.poke();
  }

  /** Waits until every task has settled, those started meanwhile too. */
  async drain(): Promise<void> {
    while (this.#tasks.size > 0) await Promise.all(this.#tasks);
  }

  /** Hands `result` to the readers. */
  push(result: Result): void {
    this.channel.push(result);
  }

  /** Calls every listener with `progress`. */
  progress(progress: Progress): void {
    for (const listener of this.listeners) listener(progress);
  }

  /** Ends the results (with the failure, if any): the run's report, or its failure thrown. */
  end<Report>(report: Report): Report {
    this.channel.end(this.#failure);
    if (this.#failure !== undefined) throw this.#failure.error;
    return report;
  }
}
