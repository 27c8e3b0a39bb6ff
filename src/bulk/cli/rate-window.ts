// Whether the client is waiting for the service's rate window, as its `onWait` option tells it:
// pacing that holds the sends until the window has room (once the client knows its window) or
// until a 429's wait ends, and a retry after a 429. Only a wait that holds the sends for a
// noticeable time is said, and it is over when its time is up or an answer from the next window
// shows the sends going again. Nothing of the client's pacing is read or changed here; this only
// listens.
import type { WaitEvent } from '../../index.js';

/** The part of a client read here: the `X-RateLimit-*` values of its last answer. */
interface RateLimited {
  readonly rateLimit: { readonly limit: number; readonly remaining: number; readonly reset: number } | undefined;
}

/** A wait for the rate window: the window's limit, when known, and when it opens again (ms). */
export interface RateWait {
  readonly limit: number | undefined;
  readonly until: number;
}

/** The shortest wait said: a shorter one ends before a person could read it. */
const NOTICEABLE_MS = 1000;

/** Listens to one client for waits on the rate window. */
export class RateWindow {
  #client: RateLimited | undefined;
  /** When the wait said ends (ms); 0 before any, and once it is over. */
  #until = 0;
  /** The window (its `reset`) of the client's last answer when that wait was told. */
  #reset: number | undefined;

  /** The client's `onWait` option. */
  readonly onWait = (wait: WaitEvent): void => {
    // Before its first answer a client holds its other sends only to learn its window: no rate wait yet.
    const forTheWindow = wait.status === 429 || (wait.reason === 'pacing' && this.#client?.rateLimit !== undefined);
    if (!forTheWindow) return;
    const now = Date.now();
    // A short wait is not said; once one is, each wait told after it says better when the window
    // opens (the client tells again when an answer names the window's end more precisely).
    if (this.#until <= now && wait.ms < NOTICEABLE_MS) return;
    this.#until = now + wait.ms;
    this.#reset = this.#client?.rateLimit?.reset;
  };

  /** The client made with `onWait`. */
  watch(client: RateLimited): void {
    this.#client = client;
  }

  /** The wait under way at `now`, or undefined when the client is not waiting for the window. */
  waiting(now = Date.now()): RateWait | undefined {
    if (this.#until <= now) return undefined;
    const last = this.#client?.rateLimit;
    if (last !== undefined && this.#reset !== undefined && last.reset > this.#reset && last.remaining > 0) {
      // An answer from a later window with room in it: the sends go again, whatever the wait was told to last.
      this.#until = 0;
      return undefined;
    }
    return { limit: this.#client?.rateLimit?.limit, until: this.#until };
  }
}

/** The wait in words: `waiting for the rate window (60 requests per window, opens in 42 s)`. */
export function rateWaitText(wait: RateWait, now = Date.now()): string {
  const details = [
    ...(wait.limit === undefined ? [] : [`${wait.limit} requests per window`]),
    `opens in ${Math.max(1, Math.ceil((wait.until - now) / 1000))} s`,
  ];
  return `waiting for the rate window (${details.join(', ')})`;
}
