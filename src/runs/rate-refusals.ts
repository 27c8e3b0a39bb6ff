// Waiting out the service's refusals for the rate. The client waits out a 429 itself, a few times
// (`maxRetries`); a job of many requests keeps going: a 429 was not processed, so the request is
// made again after the wait, for as long as the job's signal lets it.
import { AbortError, RateLimitExceededError } from '../core/errors/classes.js';

/** Longest wait for a refusal that said to wait longer (or said nothing), before asking again (ms). */
const MAX_WAIT_MS = 60_000;

/**
 * `call()`'s result, made again after each refusal for the rate that was not processed (its
 * `Retry-After`, at most a minute). Any other failure is thrown as it is; an `AbortError` when
 * `signal` aborts a wait.
 */
export async function waitOutRateLimits<T>(call: () => PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!RateLimitExceededError.is(error) || error.mayHaveBeenProcessed) throw error;
      await pause(Math.min((error.retryAfter ?? 1) * 1000, MAX_WAIT_MS), signal);
    }
  }
}

/** Waits `ms`; an `AbortError` when `signal` aborts first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(new AbortError('The signal stopped the wait for the rate limit.', { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
}
