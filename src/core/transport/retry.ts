// The retry policy, with no I/O: which failures are tried again, after how long, and which may have taken effect.
import { rateLimitWait } from '../rate-limit/headers.js';

const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8000;

/** Methods that may be repeated without repeating their effect. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
/** Methods that only read: whatever happened to them, nothing changed on the server. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * bizmsg's code for a fetch that refused the URL's port, one the Fetch standard blocks (undici
 * says "bad port" with no code): nothing was sent, and no retry can succeed.
 */
export const BAD_PORT = 'BAD_PORT';

/**
 * Error codes that mean the connection failed before any byte of the request left, so a
 * retry cannot duplicate anything, whatever the method.
 */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  BAD_PORT,
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** How one attempt ended, as far as the retry decision is concerned. */
export type AttemptOutcome =
  | { kind: 'response'; status: number; headers: Headers }
  | { kind: 'timeout' }
  | { kind: 'network'; code: string | undefined };

/** The limits a retry decision respects. */
export interface RetryLimits {
  /** Retries allowed after the first attempt. */
  maxRetries: number;
  /** Longest wait (ms) a 429 or 5xx may ask for. */
  maxRetryWait: number;
}

/** Retry after `delay` ms, or fail (with the seconds a 429 asked to wait, if it said). */
type RetryDecision = { retry: true; delay: number } | { retry: false; retryAfter?: number | undefined };

/**
 * The retry policy, with no I/O: whether attempt `retry` (0-based) of a `method` request,
 * which ended with `outcome`, is tried again and after how long. A request that may have
 * reached the server is repeated only when its method is idempotent, so no POST is sent twice.
 */
export function retryDecision(
  method: string,
  outcome: AttemptOutcome,
  retry: number,
  limits: RetryLimits,
  nowMs: number,
): RetryDecision {
  const canRetry = retry < limits.maxRetries;
  const idempotent = isIdempotent(method);
  const backoff = { retry: true, delay: nextRetryDelay(retry) } as const;
  if (outcome.kind === 'timeout') return canRetry && idempotent ? backoff : { retry: false };
  if (outcome.kind === 'network') {
    if (outcome.code === BAD_PORT) return { retry: false };
    return canRetry && (idempotent || failedBeforeSending(outcome.code)) ? backoff : { retry: false };
  }
  const wait = rateLimitWait(outcome.headers, nowMs);
  if (outcome.status === 429) {
    const delay = wait === undefined ? backoff.delay : wait * 1000;
    return canRetry && delay <= limits.maxRetryWait ? { retry: true, delay } : { retry: false, retryAfter: wait };
  }
  if (outcome.status >= 500 && canRetry && idempotent) {
    return wait === undefined || wait * 1000 > limits.maxRetryWait ? backoff : { retry: true, delay: wait * 1000 };
  }
  return { retry: false };
}

/**
 * True when the attempt may have been processed (changed something on the server): it has an effect (not a
 * safe method) and it may have been acted on (sent and not rejected with a 4xx).
 */
export function attemptMayHaveBeenProcessed(method: string, outcome: AttemptOutcome): boolean {
  if (SAFE_METHODS.has(method)) return false;
  if (outcome.kind === 'network') return !failedBeforeSending(outcome.code);
  return outcome.kind === 'timeout' || outcome.status < 400 || outcome.status >= 500;
}

/** True for methods that are safe to send twice. */
export function isIdempotent(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method);
}

/** Delay before retry number `retry` (0-based): exponential, capped, with "equal jitter". */
function nextRetryDelay(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** retry);
  return ceiling / 2 + (random() * ceiling) / 2;
}

/** The first error code found on a fetch error or its causes (undici nests them). */
export function networkErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 4; depth++) {
    const { code, errors } = e as { code?: unknown; errors?: unknown };
    if (typeof code === 'string') return code;
    if (e instanceof Error && e.message === 'bad port') return BAD_PORT;
    if (Array.isArray(errors) && errors.length > 0) return networkErrorCode(errors[0]);
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when the failure code proves the request never reached the server. */
function failedBeforeSending(code: string | undefined): boolean {
  return code !== undefined && NOT_SENT_CODES.has(code);
}
