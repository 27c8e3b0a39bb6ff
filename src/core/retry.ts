import { readRateLimit, readRetryAfter } from './rate-limit-headers.js';

const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8000;

/** Methods that may be repeated without repeating their effect. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/**
 * Error codes that mean the connection failed before any byte of the request left, so a
 * retry cannot duplicate anything, whatever the method.
 */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** True for methods that are safe to send twice. */
export function isIdempotent(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method);
}

/** Delay before retry number `retry` (0-based): exponential, capped, with "equal jitter". */
export function nextRetryDelay(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** retry);
  return ceiling / 2 + (random() * ceiling) / 2;
}

/** Seconds a 429 asks to wait: `Retry-After`, else until `X-RateLimit-Reset`, else unknown. */
export function rateLimitWait(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = readRetryAfter(headers, nowMs);
  if (retryAfter !== undefined) return retryAfter;
  const snapshot = readRateLimit(headers, nowMs);
  return snapshot === undefined ? undefined : Math.max(0, snapshot.reset - Math.floor(nowMs / 1000));
}

/** The first error code found on a fetch error or its causes (undici nests them). */
export function networkErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 4; depth++) {
    const { code, errors } = e as { code?: unknown; errors?: unknown };
    if (typeof code === 'string') return code;
    if (Array.isArray(errors) && errors.length > 0) return networkErrorCode(errors[0]);
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when the failure code proves the request never reached the server. */
export function failedBeforeSending(code: string | undefined): boolean {
  return code !== undefined && NOT_SENT_CODES.has(code);
}
