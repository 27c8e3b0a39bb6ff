// Time limits: the longest timer, bounded waits on what users plug in, waits a signal cuts short, and millisecond options.
import { InvalidArgumentError } from './errors.js';
import { showValue } from './describe.js';

/** The longest delay `setTimeout` takes as given (2^31 - 1 ms, ~24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * `promise`, or a rejection with `Error(message)` when it has not settled within `ms`. A plug-in
 * (a store, Redis) that hangs must not hang the caller nor keep the process alive, so the timer is
 * unref'd. After a stall of the event loop, timers run before I/O that is already waiting is
 * read: the timeout waits one more turn, so that an answer already in its socket wins.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timer = setTimeout(() => reject(new Error(message)));
      unref(timer);
    }, ms);
    unref(timer);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function unref(timer: ReturnType<typeof setTimeout>): void {
  (timer as { unref?: () => void }).unref?.();
}

/** What a millisecond option accepts. */
interface MsRange {
  readonly min: number;
  readonly max: number;
  /** Whole milliseconds only. */
  readonly integer?: boolean;
}

/**
 * Resolves after `ms` (clamped to what a timer can hold), or rejects with the signal's reason when
 * it aborts. `wakers`: while the wait runs, it holds a function that ends the wait early (a
 * WakeList's `wakeAll` calls them).
 */
export function sleep(ms: number, signal?: AbortSignal, wakers?: Set<() => void>): Promise<void> {
  if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      wakers?.delete(wake);
    };
    const wake = () => {
      settle();
      resolve();
    };
    const onAbort = () => {
      settle();
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(wake, Math.min(MAX_TIMER_MS, Math.max(0, ms)));
    wakers?.add(wake);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `promise`, or a rejection with the signal's reason as soon as `signal` aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    // Nobody waits for `promise` now: a rejection of its own later must not go unhandled.
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * A millisecond option, checked: `fallback` when absent, else a number within `range`, or an
 * `InvalidArgumentError` naming `what` ("The `timeout` option") and what it accepts.
 */
export function checkMs(what: string, value: unknown, fallback: number, range: MsRange): number {
  if (value === undefined) return fallback;
  const { min, max, integer = false } = range;
  const valid =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!integer || Number.isInteger(value)) &&
    value >= min &&
    value <= max;
  if (!valid) {
    throw new InvalidArgumentError(
      `${what} must be a ${integer ? 'whole ' : ''}number of milliseconds from ${min} to ${max}, got ${showValue(value)}.`,
    );
  }
  return value;
}
