// A 429's wait longer than `maxRetryWait`: until it ends, calls fail at once instead of waiting.
import type { CallLabel } from '../call/call.js';
import { RateLimitExceededError } from '../errors/classes.js';
import { redactHeaders } from '../errors/redact.js';

/** A 429's wait longer than `maxRetryWait`, still running. */
export interface LongRateWait {
  /** Local time (ms) the 429 asked to wait until. */
  readonly until: number;
  /** The 429's headers. */
  readonly headers: Headers;
}

/** The error of a call not sent because a long wait is running. */
export function longWaitError(
  call: CallLabel,
  wait: LongRateWait,
  maxRetryWait: number,
  apiKey: string,
): RateLimitExceededError {
  const seconds = Math.ceil((wait.until - Date.now()) / 1000);
  return new RateLimitExceededError(
    {
      status: 429,
      code: 'RATE_LIMIT_EXCEEDED',
      message:
        `not sent: an earlier 429 asked this client to wait ${seconds} s more, longer than maxRetryWait ` +
        `(${maxRetryWait} ms); retry after that, or raise maxRetryWait`,
      details: {},
      headers: redactHeaders(wait.headers, apiKey),
      method: call.method,
      path: `/${call.path}`,
    },
    undefined,
    seconds,
  );
}
