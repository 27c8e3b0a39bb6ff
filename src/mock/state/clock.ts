// The mock's time: real time plus what advance(ms) added, and the tasks that run when it gets there.
import { badArgument } from '../calls/errors.js';
import { showValue } from '../../shared/describe.js';
import { MAX_TIMER_MS } from '../../shared/timers.js';
import type { PendingTask } from './records.js';

/**
 * The latest time the service's timestamps can show (ISO 8601 writes four-digit years; a Date goes
 * on to +275760, which no client parses): virtual time never passes it.
 */
const MAX_DATE_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A task the clock runs when its time comes. */
interface Task {
  at: number;
  seq: number;
  run: () => unknown;
  /** What the task does, for people ("msg_3 delivered", "attempt 2 (retry 1) of message.sent to ..."). */
  what: string;
  /** What the task belongs to, so that `cancel` can drop it when that goes away. */
  owner: string | undefined;
}

/**
 * The mock's time: real time plus whatever `advance(ms)` added. Tasks (message lifecycle
 * steps, webhook retries, campaigns) run when this clock reaches them, whether real time or
 * `advance` gets it there. `stop()` freezes it: then only `advance` moves it, until `start()`.
 */
export class VirtualClock {
  #offset = 0;
  /** The real time at which the clock was stopped; undefined while it runs. */
  #stoppedAt: number | undefined;
  #seq = 0;
  #tasks: Task[] = [];
  /** How many tasks each owner has waiting. */
  readonly #owned = new Map<string, number>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #pending = new Set<Promise<unknown>>();
  readonly #ran: (what: string) => void;

  /** `ran` hears what each task did, once it ran. */
  constructor(ran: (what: string) => void = () => undefined) {
    this.#ran = ran;
  }

  /** The current virtual time, in ms since the epoch. */
  now(): number {
    return (this.#stoppedAt ?? Date.now()) + this.#offset;
  }

  /** True while the clock is stopped (frozen): time moves only by `advance`. */
  get stopped(): boolean {
    return this.#stoppedAt !== undefined;
  }

  /** The current virtual time as a Date. */
  date(): Date {
    return new Date(this.now());
  }

  /**
   * Moves time forward by `ms` and runs every task that falls due, in time order. Resolves
   * once the work those tasks started (webhook deliveries included) has settled.
   */
  async advance(ms: number): Promise<void> {
    if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0)
      throw badArgument(
        'ms',
        'must be a whole number >= 0',
        `clock.advance(ms) needs a whole number of ms >= 0, got ${showValue(ms)}.`,
      );
    const target = this.now() + ms;
    if (target > MAX_DATE_MS)
      throw badArgument(
        'ms',
        'would move the clock past the latest date (9999-12-31)',
        `clock.advance(${ms}) would move the clock past the latest date (9999-12-31).`,
      );
    await this.#runDue(target);
    this.#offset += Math.max(0, target - this.now());
    await this.#runDue();
  }

  /**
   * Resolves once the work started by tasks has settled, but for `except` (work already under way
   * before a call, see `underWay`: a call need not wait for a slow receiver it did not start).
   */
  async settled(except: ReadonlySet<Promise<unknown>> = new Set()): Promise<void> {
    for (;;) {
      const waiting = [...this.#pending].filter((work) => !except.has(work));
      if (waiting.length === 0) return;
      await Promise.allSettled(waiting);
    }
  }

  /**
   * The work started since `before` (what `underWay` gave). Taken as soon as a call has started what
   * it causes (before it awaits anything, so no other call's work is among it), it is that call's
   * own: a call waits for it, not for work others keep starting meanwhile (a flood of deliveries).
   */
  startedSince(before: ReadonlySet<Promise<unknown>>): Array<Promise<unknown>> {
    return [...this.#pending].filter((work) => !before.has(work));
  }

  /** The work under way now (deliveries being answered). */
  underWay(): ReadonlySet<Promise<unknown>> {
    return new Set(this.#pending);
  }

  /**
   * Runs `run` at virtual time `at` (or as soon as possible if that has passed); `what` says what
   * it does, `owner` what it belongs to (see `cancel`).
   */
  schedule(at: number, run: () => unknown, what: string, owner?: string): void {
    this.#tasks.push({ at, seq: this.#seq++, run, what, owner });
    if (owner !== undefined) this.#owned.set(owner, this.scheduledFor(owner) + 1);
    this.#tasks.sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.#armTimer();
  }

  /** Drops the tasks scheduled for `owner` (an endpoint's retries once it is removed); returns how many. */
  cancel(owner: string): number {
    const before = this.#tasks.length;
    this.#tasks = this.#tasks.filter((task) => task.owner !== owner);
    this.#owned.delete(owner);
    this.#armTimer();
    return before - this.#tasks.length;
  }

  /** How many tasks of `owner` wait for their time. */
  scheduledFor(owner: string): number {
    return this.#owned.get(owner) ?? 0;
  }

  /** The tasks waiting for their time, soonest first. */
  pending(): PendingTask[] {
    return this.#tasks.map(({ at, what }) => ({ at, what }));
  }

  /** Keeps track of asynchronous work so that `advance` and `settled` can wait for it. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work)).catch(() => undefined);
    return work;
  }

  /** Drops all tasks and the advanced offset: back to real time, running (a stopped clock starts again). */
  reset(): void {
    this.#tasks = [];
    this.#owned.clear();
    this.#offset = 0;
    this.#stoppedAt = undefined;
    this.#disarm();
  }

  /**
   * Freezes the clock: time stands still and nothing falls due (no message is delivered, no retry
   * made, no campaign run) until `advance` moves it or `start` lets it run again. Work already
   * under way (a delivery being answered) goes on.
   */
  stop(): void {
    this.#stoppedAt ??= Date.now();
    this.#disarm();
  }

  /** Lets a stopped clock run again from where it stood; the tasks due by then run at once. */
  start(): void {
    if (this.#stoppedAt === undefined) return;
    this.#offset += this.#stoppedAt - Date.now();
    this.#stoppedAt = undefined;
    this.#armTimer();
  }

  /**
   * Runs due tasks in time order. With `until`, time jumps to each task's own time first, so
   * that a task sees the moment it was scheduled for (a delivery at +1 s, not at the end of
   * a 10 s advance).
   */
  async #runDue(until?: number): Promise<void> {
    for (;;) {
      // Work in flight (a delivery) may still schedule a task that falls due.
      await this.settled();
      const task = this.#tasks[0];
      if (task === undefined || task.at > (until ?? this.now())) break;
      if (task.at > this.now()) this.#offset += task.at - this.now();
      this.#tasks.shift();
      if (task.owner !== undefined) this.#forgetOne(task.owner);
      const result = task.run();
      if (result instanceof Promise) void this.track(result);
      this.#ran(task.what);
    }
    this.#armTimer();
  }

  #forgetOne(owner: string): void {
    const left = this.scheduledFor(owner) - 1;
    if (left > 0) this.#owned.set(owner, left);
    else this.#owned.delete(owner);
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #armTimer(): void {
    this.#disarm();
    const next = this.#tasks[0];
    // A stopped clock keeps its tasks for `advance` or `start`.
    if (next === undefined || this.#stoppedAt !== undefined) return;
    // A task further away than the longest timer gets a timer that wakes up early, finds
    // nothing due and sets the next one: one wake-up per ~24.8 days instead of one per ms.
    const delay = next.at - this.now();
    this.#timer = setTimeout(() => void this.#runDue(), delay > MAX_TIMER_MS ? MAX_TIMER_MS : delay > 0 ? delay : 0);
    this.#timer.unref?.();
  }
}
