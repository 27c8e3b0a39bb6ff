// One call's log lines and span events, one line per attempt that ends.
import type { LevelledLogger } from '../../shared/logger.js';
import type { RateLimitSnapshot } from '../wire/headers.js';
import type { CallSpan } from './tracing.js';

/**
 * What one call tells the log and its span: one line per attempt that ends, with method,
 * path, outcome, attempt, wait and duration. Lines never hold the API key (the caller
 * passes texts already redacted).
 */
export class CallReport {
  readonly #logger: LevelledLogger | undefined;
  readonly #span: CallSpan | undefined;
  readonly #method: string;
  readonly #path: string;
  #attempt = 0;
  #attemptStarted = 0;

  constructor(logger: LevelledLogger | undefined, span: CallSpan | undefined, method: string, path: string) {
    this.#logger = logger;
    this.#span = span;
    this.#method = method;
    this.#path = path;
  }

  /** An attempt goes out (after any pacing wait). */
  attemptStarted(attempt: number): void {
    this.#attempt = attempt;
    this.#attemptStarted = Date.now();
    if (this.#logger?.enabled('debug')) this.#logger.log('debug', `bizmsg: ${this.#what()} attempt ${attempt} sent`);
  }

  /** The rate-limit headers of an attempt's response. */
  rateLimit(snapshot: RateLimitSnapshot): void {
    this.#span?.rateLimit(snapshot.limit, snapshot.remaining, snapshot.reset);
  }

  /** An attempt failed and is retried after `delayMs`. */
  retrying(outcome: string, delayMs: number): void {
    this.#span?.retry(this.#attempt, delayMs, outcome);
    this.#logger?.log('warn', `${this.#line(outcome)}; retrying in ${Math.round(delayMs)} ms`);
  }

  /** The call ended: with `status` (when a response came) and `error` (when it failed). */
  finished(outcome: string, status: number | undefined, error: Error | undefined): void {
    this.#span?.end(status, Math.max(0, this.#attempt - 1), error);
    // A line is built only for a logger that keeps it: at the default level, a success writes none.
    if (error !== undefined)
      this.#logger?.log('error', `${this.#line(outcome)}; failed: ${error.name}: ${error.message}`);
    else if (this.#logger?.enabled('info')) this.#logger.log('info', this.#line(outcome));
  }

  #what(): string {
    return `${this.#method} /${this.#path}`;
  }

  #line(outcome: string): string {
    if (this.#attempt === 0) return `bizmsg: ${this.#what()} -> ${outcome} before it was sent`;
    return `bizmsg: ${this.#what()} -> ${outcome} in ${Date.now() - this.#attemptStarted} ms (attempt ${this.#attempt})`;
  }
}
