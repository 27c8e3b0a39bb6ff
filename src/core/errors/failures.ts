import {
  ConnectionError,
  RateLimitExceededError,
  ResponseValidationError,
  TimeoutError,
  type ApiError,
  type ResponseIssue,
} from './classes.js';
import { errorFromResponse } from './from-response.js';
import { readRateLimit } from '../rate-limit/headers.js';
import { redactBody, redactHeaders, redactText } from './redact.js';
import { BAD_PORT, isIdempotent, rateLimitWait } from '../transport/retry.js';

/** The request an error is about. */
interface FailedCall {
  method: string;
  path: string;
  /** The call's `maxRetries`, where a message says what became of its retries. */
  maxRetries?: number;
}

/** Whether an earlier attempt, or the last one, may have taken effect on the service. */
export interface Processed {
  earlier: boolean;
  now: boolean;
}

/** An error response as read off the wire (body text already read). */
interface ErrorReply {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
}

/** The typed error of an error response, with the key removed from everything it keeps. */
export function apiError(call: FailedCall, reply: ErrorReply, processed: Processed, apiKey: string): ApiError {
  const headers = redactHeaders(reply.headers, apiKey);
  const note = processedNote(call.method, processed);
  const now = Date.now();
  return errorFromResponse(
    { status: reply.status, statusText: redactText(reply.statusText, apiKey), headers },
    redactBody(reply.text, apiKey),
    {
      method: call.method,
      path: `/${call.path}`,
      mayHaveBeenProcessed: processed.earlier || processed.now,
      ...(note === undefined ? {} : { processedNote: note }),
    },
    readRateLimit(headers, now),
    reply.status === 429 ? rateLimitWait(headers, now) : undefined,
  );
}

/** The error of a call not sent because a 429 asked for a longer wait than `maxRetryWait`, which is still running. */
export function refusedError(
  call: FailedCall,
  refusal: { until: number; headers: Headers },
  maxRetryWait: number,
  apiKey: string,
): RateLimitExceededError {
  const seconds = Math.ceil((refusal.until - Date.now()) / 1000);
  return new RateLimitExceededError(
    {
      status: 429,
      code: 'RATE_LIMIT_EXCEEDED',
      message:
        `not sent: an earlier 429 asked this client to wait ${seconds} s more, longer than maxRetryWait ` +
        `(${maxRetryWait} ms); retry after that, or raise maxRetryWait`,
      details: {},
      headers: redactHeaders(refusal.headers, apiKey),
      method: call.method,
      path: `/${call.path}`,
    },
    undefined,
    seconds,
  );
}

/** The error of an attempt that took longer than `ms`. */
export function timeoutError(call: FailedCall, ms: number, processed: Processed): TimeoutError {
  const base = `${call.method} /${call.path} timed out after ${ms} ms`;
  if (!isIdempotent(call.method)) {
    return new TimeoutError(
      `${base}; the request may have been processed, so it was not retried to avoid a duplicate`,
      true,
    );
  }
  return new TimeoutError(
    withNote(`${base}; ${retriesOutcome(call)}`, processedNote(call.method, processed)),
    processed.earlier || processed.now,
  );
}

/** The error of an attempt whose connection failed (`code`: the socket error code, if known). */
export function connectionError(
  call: FailedCall,
  code: string | undefined,
  processed: Processed,
  cause: unknown,
): ConnectionError {
  if (code === BAD_PORT) {
    const message = `${call.method} /${call.path} was not sent: fetch refuses the base URL's port, one of the ports the Fetch standard blocks; give \`baseUrl\` another port`;
    return new ConnectionError(message, processed.earlier, { cause });
  }
  const base = `${call.method} /${call.path} failed to connect${code === undefined ? '' : ` (${code})`}`;
  const message =
    !isIdempotent(call.method) && processed.now
      ? `${base} after the request may have been sent; it was not retried to avoid a duplicate`
      : withNote(`${base}; ${retriesOutcome(call)}`, processedNote(call.method, processed));
  return new ConnectionError(message, processed.earlier || processed.now, { cause });
}

function retriesOutcome(call: FailedCall): string {
  return call.maxRetries === 0 ? 'not retried (maxRetries: 0)' : 'retries used up';
}

/** The error of a 2xx answer whose body is not what the endpoint returns. */
export function invalidBodyError(
  call: FailedCall,
  problem: string,
  issues: readonly ResponseIssue[],
  reply: { status: number; text: string; processed: boolean },
  apiKey: string,
): ResponseValidationError {
  const note = processedNote(call.method, { earlier: false, now: reply.processed });
  const suffix = note === undefined ? '' : ` (HTTP ${reply.status}; ${note})`;
  return new ResponseValidationError(
    `${call.method} /${call.path} returned a body that ${problem}${suffix}`,
    issues,
    redactBody(reply.text, apiKey),
    { status: reply.status, mayHaveBeenProcessed: reply.processed },
  );
}

/** Why an error says the request may have been processed, or undefined when it cannot have been. */
function processedNote(method: string, { earlier, now }: Processed): string | undefined {
  if (!earlier && !now) return undefined;
  if (!isIdempotent(method)) return 'the request may have been processed; it was not retried to avoid a duplicate';
  return now ? 'the request may have been processed' : 'an earlier attempt may have been processed';
}

function withNote(text: string, note: string | undefined): string {
  return note === undefined ? text : `${text}; ${note}`;
}
