import { readRateLimit, type RateLimitSnapshot } from './rate-limit-headers.js';
import { RateLimitPacer } from './rate-limit.js';
import { rateLimitWait } from './retry.js';

type Throttle = () => Promise<unknown>;

/** How a client paces itself: off, from the `X-RateLimit-*` headers, or those plus p-throttle. */
export type PacingMode = false | { limit: number; interval: number } | undefined;

/**
 * One client's pacing: the `X-RateLimit-*` budget shared by all its calls, plus p-throttle
 * when the `rateLimit` option asks for it. Every attempt takes a slot before it is sent and
 * gives it back when it ends.
 */
export class RequestPacing {
  readonly #mode: PacingMode;
  readonly #maxPauseMs: number;
  readonly #pacer = new RateLimitPacer();
  #throttle: Promise<Throttle> | undefined;
  #last: RateLimitSnapshot | undefined;

  constructor(mode: PacingMode, maxPauseMs: number) {
    this.#mode = mode;
    this.#maxPauseMs = maxPauseMs;
  }

  /** The `X-RateLimit-*` values of the last response that carried them. */
  get last(): RateLimitSnapshot | undefined {
    return this.#last;
  }

  /** Waits for room to send one attempt; undefined when no wait is needed. */
  acquire(signal: AbortSignal | undefined): Promise<void> | undefined {
    signal?.throwIfAborted();
    if (this.#mode === false) return undefined;
    if (this.#mode !== undefined) return this.#throttled(this.#mode, signal);
    return this.#pacer.acquire(signal);
  }

  /** Gives back the slot of an attempt that ended (answered or failed). */
  release(): void {
    if (this.#mode !== false) this.#pacer.release();
  }

  /** Takes in a response's headers; returns their rate-limit values, if any. */
  observe(headers: Headers, status: number): RateLimitSnapshot | undefined {
    const snapshot = readRateLimit(headers, Date.now());
    if (snapshot !== undefined) {
      this.#last = snapshot;
      if (this.#mode !== false) this.#pacer.observe(snapshot, headers);
    }
    if (status === 429) this.#pauseAfter429(headers);
    return snapshot;
  }

  /** A 429 holds every call for the wait it asks, bounded by `maxRetryWait`. */
  #pauseAfter429(headers: Headers): void {
    if (this.#mode === false) return;
    const seconds = rateLimitWait(headers, Date.now()) ?? 1;
    this.#pacer.pause(Math.min(seconds * 1000, this.#maxPauseMs));
  }

  async #throttled(rateLimit: { limit: number; interval: number }, signal: AbortSignal | undefined): Promise<void> {
    await raceAbort((await this.#loadThrottle(rateLimit))(), signal);
    await this.#pacer.acquire(signal);
  }

  #loadThrottle(rateLimit: { limit: number; interval: number }): Promise<Throttle> {
    this.#throttle ??= import('p-throttle').then(({ default: pThrottle }) => pThrottle(rateLimit)(async () => undefined));
    return this.#throttle;
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
