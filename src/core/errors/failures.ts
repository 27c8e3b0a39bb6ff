// The error each way a call can fail ends with: an error answer, a timeout, a connection failure,
// a body that does not fit, an abort, or something unexpected. Each says what happened and what to
// do, and whether the request may have been processed; none holds the API key.
import { BizMsgError } from '../../shared/errors.js';
import type { CallLabel } from '../wire/call.js';
import { rateLimitWait, readRateLimit } from '../wire/headers.js';
import { BAD_PORT, isIdempotent } from '../wire/attempt.js';
import {
  AbortError,
  ApiError,
  ConnectionError,
  ResponseValidationError,
  TimeoutError,
  type ResponseIssue,
} from './classes.js';
import { errorFromResponse } from './from-response.js';
import { causeWithoutSecret, redactBody, redactHeaders, redactText } from './redact.js';

/** Whether an earlier attempt, or the last one, may have been processed by the service. */
export interface MayHaveBeenProcessed {
  earlier: boolean;
  now: boolean;
}

/** An error response as read off the wire (body text already read). */
interface ErrorResponse {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
}

/** The typed error of an error response, with the key removed from everything it keeps. */
export function apiError(
  call: CallLabel,
  received: ErrorResponse,
  mayHaveBeenProcessed: MayHaveBeenProcessed,
  apiKey: string,
): ApiError {
  const headers = redactHeaders(received.headers, apiKey);
  const note = processedNote(call.method, mayHaveBeenProcessed);
  const now = Date.now();
  return errorFromResponse(
    { status: received.status, statusText: redactText(received.statusText, apiKey), headers },
    received.text,
    {
      method: call.method,
      path: `/${call.path}`,
      mayHaveBeenProcessed: mayHaveBeenProcessed.earlier || mayHaveBeenProcessed.now,
      ...(note === undefined ? {} : { processedNote: note }),
      completeMessage: call.completeMessage,
    },
    readRateLimit(headers, now),
    received.status === 429 ? rateLimitWait(headers, now) : undefined,
    apiKey,
  );
}

/**
 * The error of a redirect, which is never followed (the request, its key with it, would go where
 * the answer says): an `ApiError` with code `HTTP_<status>` whose message and headers name the
 * `Location`'s origin only, as its path and query may hold a token. A browser hides a redirect
 * behind an opaque answer (status 0): its code is `HTTP_REDIRECT`, and it names no address.
 */
export function redirectError(
  call: CallLabel,
  received: ErrorResponse,
  baseUrl: string,
  mayHaveBeenProcessed: MayHaveBeenProcessed,
  apiKey: string,
): ApiError {
  const headers = redactHeaders(received.headers, apiKey);
  const origin = originOf(headers.get('location'), baseUrl);
  if (origin === undefined) headers.delete('location');
  else headers.set('location', origin);
  const where = origin === undefined ? 'an address it did not show' : origin;
  const note = processedNote(call.method, mayHaveBeenProcessed);
  return new ApiError({
    status: received.status,
    code: received.status === 0 ? 'HTTP_REDIRECT' : `HTTP_${received.status}`,
    message:
      `the service answered with a redirect to ${where}, which bizmsg does not follow (the request and its ` +
      'API key would go there); check `baseUrl`',
    details: {},
    headers,
    method: call.method,
    path: `/${call.path}`,
    mayHaveBeenProcessed: mayHaveBeenProcessed.earlier || mayHaveBeenProcessed.now,
    ...(note === undefined ? {} : { processedNote: note }),
  });
}

/** The origin a `Location` header points to, relative ones read against the base URL. */
function originOf(location: string | null, baseUrl: string): string | undefined {
  if (location === null) return undefined;
  try {
    const { origin } = new URL(location, baseUrl);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** The error of an attempt that took longer than `ms`. */
export function timeoutError(call: CallLabel, ms: number, mayHaveBeenProcessed: MayHaveBeenProcessed): TimeoutError {
  const base = `${call.method} /${call.path} timed out after ${ms} ms`;
  if (!isIdempotent(call.method)) {
    return new TimeoutError(
      `${base}; the request may have been processed, so it was not retried to avoid a duplicate`,
      true,
    );
  }
  return new TimeoutError(
    withNote(`${base}; ${retriesOutcome(call)}`, processedNote(call.method, mayHaveBeenProcessed)),
    mayHaveBeenProcessed.earlier || mayHaveBeenProcessed.now,
  );
}

/** Where a client connects, for messages: the host and port of its base URL (`api.example.com:443`). */
export function hostAndPort(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/**
 * The error of an attempt whose connection failed (`code`: the socket error code, if known;
 * `target`: the host and port it tried, from `hostAndPort`).
 */
export function connectionError(
  call: CallLabel,
  code: string | undefined,
  mayHaveBeenProcessed: MayHaveBeenProcessed,
  cause: unknown,
  target: string,
): ConnectionError {
  if (code === BAD_PORT) {
    const message = `${call.method} /${call.path} was not sent: fetch refuses the base URL's port, one of the ports the Fetch standard blocks; give \`baseUrl\` another port`;
    return new ConnectionError(message, mayHaveBeenProcessed.earlier, { cause });
  }
  const base = `${call.method} /${call.path} failed to connect to ${target}${code === undefined ? '' : ` (${code})`}`;
  const message =
    !isIdempotent(call.method) && mayHaveBeenProcessed.now
      ? `${base} after the request may have been sent; it was not retried to avoid a duplicate`
      : withNote(`${base}; ${retriesOutcome(call)}`, processedNote(call.method, mayHaveBeenProcessed));
  return new ConnectionError(message, mayHaveBeenProcessed.earlier || mayHaveBeenProcessed.now, { cause });
}

/** The error of a call whose signal aborted it (or its wait before a retry). */
export function abortedError(call: CallLabel, reason: unknown): AbortError {
  return new AbortError(`${call.method} /${call.path} was aborted by its signal`, { cause: reason });
}

/** The error of a failure nothing else explains (a bug, or a fetch that threw something odd); the key removed. */
export function unexpectedError(call: CallLabel, thrown: unknown, apiKey: string): BizMsgError {
  const what = redactText(thrown instanceof Error ? thrown.message : String(thrown), apiKey);
  return new BizMsgError(`${call.method} /${call.path} failed unexpectedly: ${what}`, {
    cause: causeWithoutSecret(thrown, apiKey),
  });
}

function retriesOutcome(call: CallLabel): string {
  return call.maxRetries === 0 ? 'not retried (maxRetries: 0)' : 'retries used up';
}

/** The error of a 2xx answer whose body is not what the endpoint returns. */
export function invalidBodyError(
  call: CallLabel,
  problem: string,
  issues: readonly ResponseIssue[],
  received: { status: number; text: string; mayHaveBeenProcessed: boolean },
  apiKey: string,
): ResponseValidationError {
  const note = processedNote(call.method, { earlier: false, now: received.mayHaveBeenProcessed });
  const suffix = note === undefined ? '' : ` (HTTP ${received.status}; ${note})`;
  return new ResponseValidationError(
    `${call.method} /${call.path} returned a body that ${problem}${suffix}`,
    issues,
    redactBody(received.text, apiKey),
    { status: received.status, mayHaveBeenProcessed: received.mayHaveBeenProcessed },
  );
}

/** Why an error says the request may have been processed, or undefined when it cannot have been. */
function processedNote(method: string, { earlier, now }: MayHaveBeenProcessed): string | undefined {
  if (!earlier && !now) return undefined;
  if (!isIdempotent(method)) return 'the request may have been processed; it was not retried to avoid a duplicate';
  return now ? 'the request may have been processed' : 'an earlier attempt may have been processed';
}

function withNote(text: string, note: string | undefined): string {
  return note === undefined ? text : `${text}; ${note}`;
}
