// The retry policy, with no I/O: which failures are tried again, and after how long.
import { BAD_PORT, failedBeforeSending, isIdempotent, type AttemptOutcome } from '../wire/attempt.js';
import { rateLimitWait, readRetryAfter } from '../wire/headers.js';

const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8000;

/** The limits a retry decision respects. */
export interface RetryLimits {
  /** Retries allowed after the first attempt. */
  maxRetries: number;
  /** Longest wait (ms) an answer may ask for before a retry. */
  maxRetryWait: number;
}

/** Retry after `delay` ms, or fail (with the seconds a 429 asked to wait, if it said). */
export type RetryDecision = { retry: true; delay: number } | { retry: false; retryAfter?: number | undefined };

/**
 * Whether attempt `retry` (0-based) of a `method` request, which ended with `outcome`, is tried
 * again and after how long. A request that may have reached the server is repeated only when its
 * method is idempotent, so no POST is sent twice.
 *
 * - A 429 was not processed: any method waits what it asked (`Retry-After`, else until its
 *   `X-RateLimit-Reset`), unless that is longer than `maxRetryWait`.
 * - A 5xx (but 501), a time-out or a connection failure waits its own `Retry-After`, when it has
 *   one, at most `maxRetryWait`; else the backoff. The window's reset never delays it: the rate
 *   window holds back only requests made while none are left (pacing).
 * - A connection that failed before anything was sent is retried for any method.
 */
export function retryDecision(
  method: string,
  outcome: AttemptOutcome,
  retry: number,
  limits: RetryLimits,
  nowMs: number,
): RetryDecision {
  const canRetry = retry < limits.maxRetries;
  const backoff = nextRetryDelay(retry);
  if (outcome.kind === 'timeout') return canRetry && isIdempotent(method) ? { retry: true, delay: backoff } : NO;
  if (outcome.kind === 'network') {
    const resend = isIdempotent(method) || failedBeforeSending(outcome.code);
    return canRetry && resend && outcome.code !== BAD_PORT ? { retry: true, delay: backoff } : NO;
  }
  if (outcome.status === 429) {
    const wait = rateLimitWait(outcome.headers, nowMs);
    const delay = wait === undefined ? backoff : wait * 1000;
    return canRetry && delay <= limits.maxRetryWait ? { retry: true, delay } : { retry: false, retryAfter: wait };
  }
  if (outcome.status >= 500 && outcome.status !== 501 && canRetry && isIdempotent(method)) {
    const asked = readRetryAfter(outcome.headers, nowMs);
    return { retry: true, delay: asked === undefined ? backoff : Math.min(asked * 1000, limits.maxRetryWait) };
  }
  return NO;
}

const NO: RetryDecision = { retry: false };

/** Delay before retry number `retry` (0-based): exponential, capped, with "equal jitter". */
function nextRetryDelay(retry: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** retry);
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}
