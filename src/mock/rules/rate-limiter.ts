// Per-key rate limits: fixed windows on the mock's clock, with X-RateLimit-* and 429 + Retry-After.
import { MockHttpError } from '../wire/http-error.js';
import type { MockPlan } from '../options.js';

const MINUTE_MS = 60_000;

/**
 * Fixed windows per key, aligned to multiples of the window length on the mock's clock, so
 * that `X-RateLimit-Reset` is an exact whole second for windows of whole seconds.
 */
export class RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();

  /** Counts one request; the headers to send, or a 429 RATE_LIMIT_EXCEEDED carrying them. */
  hit(key: string, plan: MockPlan, now: number): Record<string, string> {
    const windowMs = plan.window ?? MINUTE_MS;
    const start = Math.floor(now / windowMs) * windowMs;
    let window = this.#windows.get(key);
    if (window === undefined || window.start !== start) {
      window = { start, count: 0 };
      this.#windows.set(key, window);
    }
    window.count += 1;
    const resetMs = start + windowMs;
    const headers = {
      'x-ratelimit-limit': String(plan.rateLimit),
      'x-ratelimit-remaining': String(Math.max(0, plan.rateLimit - window.count)),
      'x-ratelimit-reset': String(Math.ceil(resetMs / 1000)),
    };
    if (window.count > plan.rateLimit) {
      const retryAfter = String(Math.max(1, Math.ceil((resetMs - now) / 1000)));
      throw new MockHttpError(
        'RATE_LIMIT_EXCEEDED',
        `Rate limit of ${plan.rateLimit} requests per ${windowMs / 1000} s exceeded.`,
        {},
        { ...headers, 'retry-after': retryAfter },
      );
    }
    return headers;
  }

  /** Forgets all windows. */
  reset(): void {
    this.#windows.clear();
  }
}
