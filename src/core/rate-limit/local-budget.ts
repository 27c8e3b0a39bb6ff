// The rate-limit budget of one client, kept in this process from the X-RateLimit-* headers it sees.
import { MAX_WINDOW_MS, readClockSkew, type RateLimitSnapshot } from '../wire/headers.js';
import { WakeList } from './wake-list.js';

/** When no reset time is known yet, how long a held request waits before looking again. */
const UNKNOWN_RESET_POLL_MS = 1000;
/** Longest the other requests of a cold client wait for its first answer before going anyway. */
const PROBE_WAIT_MS = 2000;

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
export class LocalBudget {
  #limit: number | undefined;
  #remaining = Number.POSITIVE_INFINITY;
  #sent = 0;
  /** Requests started and not yet answered. */
  #inFlight = 0;
  /** Server's reset value (Unix seconds) of the window we are in; 0 when unknown. */
  #reset = 0;
  /** Local time (ms) at which the known window ends; 0 when unknown. */
  #resetAt = 0;
  /** The longest time to a window's end seen in headers: how long a window is at least. */
  #windowMs = 0;
  /** Reset value of the window we left locally; headers from it arrive late and are ignored. */
  #staleReset = 0;
  /** Local time (ms) until which a 429 holds every request; 0 when none does. */
  #pausedUntil = 0;
  /**
   * Until the client's first answer, the budget is unknown: one request, the probe, goes alone to
   * learn it, so that a cold client's first burst does not collect a 429 for each request over the
   * limit. `probeStartedAt` is when the probe went; 0 before it, undefined once an answer came.
   */
  #probeStartedAt: number | undefined;
  readonly #waiters = new WakeList();

  /** `probe`: send one request alone until the first answer tells the budget (off when the user gave a rate). */
  constructor(probe: boolean) {
    this.#probeStartedAt = probe ? 0 : undefined;
  }

  /**
   * Counts one more request; the wait first when the window has no room, else undefined. `onWait`
   * is told of each wait once, with its length (until the window's reset or a 429's wait ends), and
   * again only if an answer moves that end. A cold client's hold for its first answer is not told:
   * it ends when that answer comes, in milliseconds as a rule; its 2 s are only a ceiling.
   */
  acquire(signal?: AbortSignal, onWait?: (ms: number) => void): Promise<void> | undefined {
    return this.#take() ? undefined : this.#waitAndTake(signal, onWait);
  }

  #take(): boolean {
    if (this.#probing()) return false;
    if (this.#pausedUntil !== 0 && Date.now() < this.#pausedUntil) return false;
    if (this.#resetAt !== 0 && Date.now() >= this.#resetAt) this.#rollOver();
    if (this.#budget() <= 0) return false;
    this.#sent += 1;
    this.#inFlight += 1;
    if (this.#probeStartedAt === 0) this.#probeStartedAt = Date.now();
    return true;
  }

  #probing(): boolean {
    const started = this.#probeStartedAt;
    return started !== undefined && started !== 0 && Date.now() < started + PROBE_WAIT_MS;
  }

  async #waitAndTake(signal: AbortSignal | undefined, onWait: ((ms: number) => void) | undefined): Promise<void> {
    /** The end of the wait last told: a wait woken early (an answer came) and resumed is told once. */
    let told: number | undefined;
    while (!this.#take()) {
      const until = this.#nextChange();
      const ms = Math.max(0, until - Date.now());
      if (!this.#probing() && until !== told) {
        told = until;
        onWait?.(ms);
      }
      await this.#waiters.wait(ms, signal);
    }
  }

  /** Local time at which a held request should look again. */
  #nextChange(): number {
    const now = Date.now();
    if (this.#probing()) return this.#probeStartedAt! + PROBE_WAIT_MS;
    if (now < this.#pausedUntil) return this.#pausedUntil;
    return this.#resetAt === 0 ? now + UNKNOWN_RESET_POLL_MS : this.#resetAt;
  }

  /** Marks the end of a request started by `acquire` (answered or failed). */
  release(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    if (this.#probeStartedAt === undefined) return;
    this.#probeStartedAt = undefined;
    this.#waiters.wakeAll();
  }

  /** Takes in the `X-RateLimit-*` values of a response (any status) and its `Date` header. */
  observe(seen: RateLimitSnapshot, headers: Headers): void {
    if (seen.reset <= this.#staleReset || seen.reset < this.#reset) return;
    if (seen.reset > this.#reset) {
      // The server moved to a new window before our clock said so: start counting afresh.
      if (this.#reset !== 0 && this.#staleReset !== this.#reset) this.#rollOver();
      this.#reset = seen.reset;
      const now = Date.now();
      this.#resetAt = Math.min(seen.reset * 1000 - readClockSkew(headers, now), now + MAX_WINDOW_MS);
      this.#windowMs = Math.max(this.#windowMs, this.#resetAt - now);
    }
    this.#limit = seen.limit;
    this.#remaining = Math.min(this.#remaining, seen.remaining);
    this.#waiters.wakeAll();
  }

  /**
   * Takes in a 429 that asked to wait `ms`: nothing is sent until then. The 429's own wait
   * replaces what earlier headers said of the window (a gateway's 429 may carry no
   * rate-limit headers), so after it requests go out again, within `limit - sent`.
   */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + ms);
    this.#remaining = Number.POSITIVE_INFINITY;
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
    // Until an answer names the new window, it is taken to be as long as the longest seen: when no
    // answer comes (the server is down, every attempt fails), the count still starts afresh then,
    // so retries go out again instead of waiting for headers that never come.
    this.#resetAt = this.#windowMs === 0 ? 0 : Date.now() + this.#windowMs;
  }
}
