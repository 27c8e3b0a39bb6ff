/** Why a deadline signal aborted. */
const TIMED_OUT = Symbol('bizmsg.timedOut');

interface Bucket {
  controller: AbortController;
  closesAt: number;
  count: number;
}

const MAX_PER_BUCKET = 100;
/** The longest delay a timer can take; a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Timeout signals shared by the requests that start within a short window (1% of the
 * timeout, at most 100 ms): creating an AbortController and a timer per request costs
 * about 10% of a local round trip on Node 20, so one pair serves a whole bucket. Each
 * request still gets at least its timeout, and at most 1% more.
 */
export class Deadlines {
  readonly #buckets = new Map<number, Bucket>();

  /** A signal that aborts with `TIMED_OUT` once `timeoutMs` has passed for a request starting now. */
  signal(timeoutMs: number): AbortSignal {
    const now = Date.now();
    let bucket = this.#buckets.get(timeoutMs);
    if (bucket === undefined || now >= bucket.closesAt || bucket.count >= MAX_PER_BUCKET) {
      bucket = this.#open(timeoutMs, now);
    }
    bucket.count += 1;
    return bucket.controller.signal;
  }

  #open(timeoutMs: number, now: number): Bucket {
    const window = Math.max(1, Math.min(100, Math.floor(timeoutMs / 100)));
    const bucket = { controller: new AbortController(), closesAt: now + window, count: 0 };
    const timer = setTimeout(() => {
      bucket.controller.abort(TIMED_OUT);
      if (this.#buckets.get(timeoutMs) === bucket) this.#buckets.delete(timeoutMs);
    }, Math.min(MAX_TIMER_MS, timeoutMs + window));
    (timer as { unref?: () => void }).unref?.();
    this.#buckets.set(timeoutMs, bucket);
    return bucket;
  }
}
