// Whether the client is waiting for the service's rate window, as its `onWait` option tells it:
// pacing that holds the sends until the window has room (once the client knows its window) or
// until a 429's wait ends, and a retry after a 429. Nothing of the client's pacing is read or
// changed here; this only listens.
import type { WaitEvent } from '../../index.js';

/** The part of a client read here: the `X-RateLimit-*` values of its last answer. */
interface RateLimited {
  readonly rateLimit: { readonly limit: number } | undefined;
}

/** A wait for the rate window: the window's limit, when known, and when it opens again (ms). */
export interface RateWait {
  readonly limit: number | undefined;
  readonly until: number;
}

/** Listens to one client for waits on the rate window. */
export class RateWindow {
  #client: RateLimited | undefined;
  /** When the latest wait heard of ends (ms); 0 before any. */
  #until = 0;

  /** The client's `onWait` option. */
  readonly onWait = (wait: WaitEvent): void => {
    // Before its first answer a client holds its other sends only to learn its window: no rate wait yet.
    const forTheWindow = wait.status === 429 || (wait.reason === 'pacing' && this.#client?.rateLimit !== undefined);
    if (forTheWindow) this.#until = Math.max(this.#until, Date.now() + wait.ms);
  };

  /** The client made with `onWait`. */
  watch(client: RateLimited): void {
    this.#client = client;
  }

  /** The wait under way at `now`, or undefined when the client is not waiting for the window. */
  waiting(now = Date.now()): RateWait | undefined {
    return this.#until > now ? { limit: this.#client?.rateLimit?.limit, until: this.#until } : undefined;
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
