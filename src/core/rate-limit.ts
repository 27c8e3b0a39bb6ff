import { readClockSkew, type RateLimitSnapshot } from './rate-limit-headers.js';

/** When no reset time is known yet, how long a held request waits before looking again. */
const UNKNOWN_RESET_POLL_MS = 1000;

/**
 * Shares one key's rate-limit budget between all concurrent calls of a client, from the
 * `X-RateLimit-*` headers seen, so that requests wait for the window reset instead of
 * collecting 429s.
 *
 * The budget of a window is `min(limit - sent, remaining)`: `sent` counts what this client
 * started in the window (an upper bound of what the server has counted from us, since some
 * may still be in flight), `remaining` is what the server last reported (which also sees
 * other clients of the same key).
 */
export class RateLimitPacer {
  #limit: number | undefined;
  #remaining = Number.POSITIVE_INFINITY;
  #sent = 0;
  /** Requests started and not yet answered. */
  #inFlight = 0;
  /** Server's reset value (Unix seconds) of the window we are in; 0 when unknown. */
  #reset = 0;
  /** Local time (ms) at which the known window ends; 0 when unknown. */
  #resetAt = 0;
  /** Reset value of the window we left locally; headers from it arrive late and are ignored. */
  #staleReset = 0;
  readonly #waiters = new Set<() => void>();

  /** Counts one more request; the wait first when the window has no room, else undefined. */
  acquire(signal?: AbortSignal): Promise<void> | undefined {
    return this.#take() ? undefined : this.#waitAndTake(signal);
  }

  #take(): boolean {
    if (this.#resetAt !== 0 && Date.now() >= this.#resetAt) this.#rollOver();
    if (this.#budget() <= 0) return false;
    this.#sent += 1;
    this.#inFlight += 1;
    return true;
  }

  async #waitAndTake(signal: AbortSignal | undefined): Promise<void> {
    while (!this.#take()) {
      const wait = this.#resetAt === 0 ? UNKNOWN_RESET_POLL_MS : this.#resetAt - Date.now();
      await this.#waitForChange(wait, signal);
    }
  }

  /** Marks the end of a request started by `acquire` (answered or failed). */
  release(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
  }

  /** Takes in the `X-RateLimit-*` values of a response (any status) and its `Date` header. */
  observe(seen: RateLimitSnapshot, headers: Headers): void {
    if (seen.reset <= this.#staleReset || seen.reset < this.#reset) return;
    if (seen.reset > this.#reset) {
      // The server moved to a new window before our clock said so: start counting afresh.
      if (this.#reset !== 0 && this.#staleReset !== this.#reset) this.#rollOver();
      this.#reset = seen.reset;
      this.#resetAt = seen.reset * 1000 - readClockSkew(headers, Date.now());
    }
    this.#limit = seen.limit;
    this.#remaining = Math.min(this.#remaining, seen.remaining);
    this.#notify();
  }

  /** Takes in a 429: nothing more is sent until the server's wait is over. */
  exhaust(retryAfterSeconds: number): void {
    this.#remaining = 0;
    this.#resetAt = Math.max(this.#resetAt, Date.now() + retryAfterSeconds * 1000);
  }

  #budget(): number {
    const bySent = this.#limit === undefined ? Number.POSITIVE_INFINITY : this.#limit - this.#sent;
    return Math.min(bySent, this.#remaining);
  }

  #rollOver(): void {
    this.#staleReset = this.#reset;
    // A request still in flight at the boundary may reach the server in the new window.
    this.#sent = this.#inFlight;
    this.#remaining = Number.POSITIVE_INFINITY;
    this.#resetAt = 0;
  }

  #waitForChange(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#waiters.delete(wake);
      };
      const wake = () => {
        settle();
        resolve();
      };
      const onAbort = () => {
        settle();
        reject(signal!.reason);
      };
      const timer = setTimeout(wake, Math.max(0, ms));
      this.#waiters.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #notify(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}
