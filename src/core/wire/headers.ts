// Reading the service's rate-limit headers: X-RateLimit-*, Retry-After and Date.

/** The `X-RateLimit-*` values of one response. */
export interface RateLimitSnapshot {
  /** Requests allowed per window (`X-RateLimit-Limit`). */
  readonly limit: number;
  /** Requests left in the window (`X-RateLimit-Remaining`). */
  readonly remaining: number;
  /** When the window resets, as Unix seconds (`X-RateLimit-Reset`). */
  readonly reset: number;
}

/**
 * Windows are per minute (spec section 8); a reset further ahead than this is not believed,
 * so that a bogus `X-RateLimit-Reset` cannot hold requests for years.
 */
export const MAX_WINDOW_MS = 65_000;

/** Timestamps below this are read as seconds-from-now, not Unix time (some proxies send deltas). */
const DELTA_THRESHOLD = 1_000_000_000;

/** Reads the `X-RateLimit-*` headers; undefined unless all three are valid integers. */
export function readRateLimit(headers: Headers, nowMs: number): RateLimitSnapshot | undefined {
  const limit = readInteger(headers.get('x-ratelimit-limit'));
  const remaining = readInteger(headers.get('x-ratelimit-remaining'));
  let reset = readInteger(headers.get('x-ratelimit-reset'));
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  if (reset < DELTA_THRESHOLD) reset += Math.ceil(nowMs / 1000);
  return { limit, remaining, reset };
}

/** Seconds to wait from `Retry-After` (delta seconds or an HTTP date), if present and valid. */
export function readRetryAfter(headers: Headers, nowMs: number): number | undefined {
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = readInteger(value);
  if (seconds !== undefined) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/**
 * How far the server's clock is ahead of ours, from its `Date` header. `Date` has whole-second
 * resolution, so differences under 2 s are treated as no skew rather than as noise to act on.
 */
export function readClockSkew(headers: Headers, nowMs: number): number {
  const date = headers.get('date');
  if (date === null) return 0;
  const skew = Date.parse(date) - nowMs;
  return Number.isNaN(skew) || Math.abs(skew) < 2000 ? 0 : skew;
}

/** Seconds a 429 asks to wait: `Retry-After`, else until `X-RateLimit-Reset`, else unknown. */
export function rateLimitWait(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = readRetryAfter(headers, nowMs);
  if (retryAfter !== undefined) return retryAfter;
  const snapshot = readRateLimit(headers, nowMs);
  return snapshot === undefined ? undefined : Math.max(0, snapshot.reset - Math.floor(nowMs / 1000));
}

function readInteger(value: string | null): number | undefined {
  if (value === null || !/^\s*\d{1,16}\s*$/.test(value)) return undefined;
  return Number(value);
}
