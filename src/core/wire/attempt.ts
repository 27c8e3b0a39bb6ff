// How one attempt ended, and what that says of the request: whether it may have reached the
// service and taken effect. The retry policy (transport/retry.ts) and the errors read it alike.

/** How one attempt ended, as far as retrying and the errors are concerned. */
export type AttemptOutcome =
  | { kind: 'response'; status: number; headers: Headers }
  | { kind: 'timeout' }
  | { kind: 'network'; code: string | undefined };

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

/**
 * True when the attempt may have been processed (changed something on the server): it has an
 * effect (not a safe method) and it may have been acted on: sent, and not refused with a 4xx, nor
 * with a 501 (the server does not do that request at all).
 */
export function attemptMayHaveBeenProcessed(method: string, outcome: AttemptOutcome): boolean {
  if (SAFE_METHODS.has(method)) return false;
  if (outcome.kind === 'network') return !failedBeforeSending(outcome.code);
  if (outcome.kind === 'timeout') return true;
  return outcome.status < 400 || (outcome.status >= 500 && outcome.status !== 501);
}

/** True for methods that are safe to send twice. */
export function isIdempotent(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method);
}

/** True when the failure code proves the request never reached the server. */
export function failedBeforeSending(code: string | undefined): boolean {
  return code !== undefined && NOT_SENT_CODES.has(code);
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
