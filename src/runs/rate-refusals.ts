// Waiting out the service's refusals for the rate, job by job. The client waits out a 429 itself,
// as long as it asked (`Retry-After`, else its reset: core's one rule) and a few times
// (`maxRetries`); a job of many requests keeps going: a 429 was not processed, so the request is
// made again after the wait the refusal carries, for as long as the job's signal lets it.
import { AbortError, RateLimitExceededError } from '../core/errors/classes.js';
import { sleep } from '../shared/timers.js';

/** Longest wait for a refusal that said to wait longer (or said nothing), before asking again (ms). */
const MAX_WAIT_MS = 60_000;

/**
 * `call()`'s result, made again after each refusal for the rate that was not processed (its
 * `retryAfter`, at most a minute). Any other failure is thrown as it is; an `AbortError` when
 * `signal` aborts a wait.
 */
export async function waitOutRateLimits<T>(call: () => PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!RateLimitExceededError.is(error) || error.mayHaveBeenProcessed) throw error;
      await sleep(Math.min((error.retryAfter ?? 1) * 1000, MAX_WAIT_MS), signal).catch((reason: unknown) => {
        throw new AbortError('The signal stopped the wait for the rate limit.', { cause: reason });
      });
    }
  }
}
