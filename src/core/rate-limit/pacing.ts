// How one client paces its calls: off, from the X-RateLimit-* headers (in this process or shared
// through a store), or those plus p-throttle; and a 429's wait, which holds every call of the
// client (a wait longer than maxRetryWait refuses them instead). The one door the transport goes through.
import type { LevelledLogger } from '../../shared/logger.js';
import { raceAbort } from '../../shared/timers.js';
import { RateLimitExceededError } from '../errors/classes.js';
import { redactHeaders } from '../errors/redact.js';
import type { CallLabel } from '../wire/call.js';
import { rateLimitWait, readRateLimit, type RateLimitSnapshot } from '../wire/headers.js';
import { LocalBudget } from './local-budget.js';
import { LOCAL_SLOT, SharedBudget, type Slot } from './shared-budget.js';
import type { RateLimitStore } from './store.js';

type Throttle = () => Promise<unknown>;

/** Told how long pacing is about to hold a request (ms), before it waits. */
export type OnPacingWait = (ms: number) => void;

/** A 429's wait longer than `maxRetryWait`, still running. */
interface LongRateWait {
  /** Local time (ms) the 429 asked to wait until. */
  readonly until: number;
  /** The 429's headers. */
  readonly headers: Headers;
}

/** How a client paces itself: off, from the `X-RateLimit-*` headers, or those plus p-throttle. */
type PacingMode = false | { limit: number; interval: number } | undefined;

/** A budget shared with other processes: the store, and what the client logs its failures with. */
interface SharedPacing {
  store: RateLimitStore;
  apiKey: string;
  logger: LevelledLogger | undefined;
}

/**
 * One client's pacing: the `X-RateLimit-*` budget shared by all its calls (a `LocalBudget`, or
 * with a `rateLimitStore` a `SharedBudget` of every process on the key), plus p-throttle when the
 * `rateLimit` option asks for it. Every attempt takes a slot before it is sent and gives it back
 * when it ends.
 */
export class Pacing {
  readonly #mode: PacingMode;
  readonly #maxPauseMs: number;
  readonly #local: LocalBudget;
  readonly #shared: SharedBudget | undefined;
  #throttle: Promise<Throttle> | undefined;
  #last: RateLimitSnapshot | undefined;
  #longWait: LongRateWait | undefined;

  constructor(mode: PacingMode, maxPauseMs: number, shared?: SharedPacing) {
    this.#mode = mode;
    this.#maxPauseMs = maxPauseMs;
    this.#local = new LocalBudget(mode === undefined);
    this.#shared =
      shared === undefined || mode === false
        ? undefined
        : new SharedBudget(shared.store, this.#local, shared.apiKey, shared.logger);
  }

  /** The `X-RateLimit-*` values of the last response that carried them. */
  get last(): RateLimitSnapshot | undefined {
    return this.#last;
  }

  /**
   * The error of a call not sent because a 429 asked this client to wait longer than
   * `maxRetryWait` and that wait still runs; undefined when calls may go.
   */
  refusal(call: CallLabel, maxRetryWait: number, apiKey: string): RateLimitExceededError | undefined {
    const wait = this.#longWait;
    if (wait === undefined) return undefined;
    if (Date.now() >= wait.until) {
      this.#longWait = undefined;
      return undefined;
    }
    const seconds = Math.ceil((wait.until - Date.now()) / 1000);
    return new RateLimitExceededError(
      {
        status: 429,
        code: 'RATE_LIMIT_EXCEEDED',
        message:
          `not sent: an earlier 429 asked this client to wait ${seconds} s more, longer than maxRetryWait ` +
          `(${maxRetryWait} ms); retry after that, or raise maxRetryWait`,
        details: {},
        headers: redactHeaders(wait.headers, apiKey),
        method: call.method,
        path: `/${call.path}`,
      },
      undefined,
      seconds,
    );
  }

  /**
   * Waits for room to send one attempt; the slot comes at once when no wait is needed, and
   * `onWait` hears of each wait before it starts.
   */
  acquire(signal: AbortSignal | undefined, onWait?: OnPacingWait): Slot | Promise<Slot> {
    signal?.throwIfAborted();
    if (this.#mode === false) return LOCAL_SLOT;
    if (this.#mode !== undefined) return this.#throttled(this.#mode, signal, onWait);
    return this.#paced(signal, onWait);
  }

  /** Gives back the slot of an attempt that ended (answered or failed). */
  release(slot: Slot): void {
    if (this.#mode === false) return;
    if (this.#shared === undefined) this.#local.release();
    else this.#shared.release(slot);
  }

  /** Takes in the headers of the response to the attempt holding `slot`; returns their rate-limit values, if any. */
  observe(headers: Headers, status: number, slot?: Slot): RateLimitSnapshot | undefined {
    const snapshot = readRateLimit(headers, Date.now());
    if (snapshot !== undefined) {
      this.#last = snapshot;
      if (this.#mode !== false) this.#local.observe(snapshot, headers);
      this.#shared?.observe(snapshot, headers, status, slot);
    }
    if (status === 429) this.#pauseAfter429(headers);
    return snapshot;
  }

  /**
   * A 429 holds every call for the wait it asks. A wait longer than `maxRetryWait` is not waited
   * out: the caller of the 429 was not made to wait, and neither is any other call.
   */
  #pauseAfter429(headers: Headers): void {
    if (this.#mode === false) return;
    const ms = (rateLimitWait(headers, Date.now()) ?? 1) * 1000;
    if (ms > this.#maxPauseMs) {
      this.#longWait = { until: Date.now() + ms, headers };
      // Other processes hold their calls no longer than maxRetryWait, as a shorter 429 would have them.
      this.#shared?.pause(this.#maxPauseMs);
      return;
    }
    this.#local.pause(ms);
    this.#shared?.pause(ms);
  }

  /** A slot from the shared budget if there is one, else from the client's own pacer. */
  #paced(signal: AbortSignal | undefined, onWait: OnPacingWait | undefined): Slot | Promise<Slot> {
    if (this.#shared !== undefined) return this.#shared.acquire(signal, onWait);
    const waiting = this.#local.acquire(signal, onWait);
    return waiting === undefined ? LOCAL_SLOT : waiting.then(() => LOCAL_SLOT);
  }

  async #throttled(
    rateLimit: { limit: number; interval: number },
    signal: AbortSignal | undefined,
    onWait: OnPacingWait | undefined,
  ): Promise<Slot> {
    await raceAbort((await this.#loadThrottle(rateLimit))(), signal);
    return this.#paced(signal, onWait);
  }

  #loadThrottle(rateLimit: { limit: number; interval: number }): Promise<Throttle> {
    this.#throttle ??= import('p-throttle').then(({ default: pThrottle }) =>
      pThrottle(rateLimit)(() => Promise.resolve()),
    );
    return this.#throttle;
  }
}
