import type { ZodMiniType } from 'zod/mini';
import { ListMetaSchema, type ListMeta } from '../schemas/common.js';
import { Deadlines } from './deadline.js';
import { describeIssue } from './describe-issue.js';
import { ConnectionError, ResponseValidationError, TimeoutError, type ApiError } from './errors.js';
import { errorFromResponse } from './error-response.js';
import { checkRequestOptions, resolveSettings, type ClientOptions, type ClientSettings, type RequestOptions } from './options.js';
import type { Protocol } from './protocol.js';
import { readRateLimit, type RateLimitSnapshot } from './rate-limit-headers.js';
import { RateLimitPacer } from './rate-limit.js';
import { redactBody } from './redact.js';
import { failedBeforeSending, isIdempotent, networkErrorCode, nextRetryDelay, rateLimitWait } from './retry.js';
import { sleep } from './sleep.js';

/** One endpoint call, as the resource classes describe it. */
export interface ApiCall<T> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path below the base URL, ids already encoded (see `pathOf`). */
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  body?: unknown;
  /** Schema of the payload inside the variant's envelope. */
  schema: ZodMiniType<T>;
}

/** The items and pagination info of one list response. */
export interface PageData<T> {
  data: T[];
  meta: ListMeta | undefined;
}

/** How one attempt ended, before deciding whether to retry. */
type Attempt =
  | { kind: 'response'; response: Response; text: string }
  | { kind: 'timeout'; ms: number }
  | { kind: 'network'; error: unknown; code: string | undefined };

type Throttle = () => Promise<unknown>;

/**
 * The one request function every endpoint goes through: authentication, pacing, timeout,
 * retries, error mapping and response parsing. The API key lives only in a private field.
 * It calls fetch directly: see docs/decisions.md for why not ky.
 */
export class HttpClient {
  readonly #settings: ClientSettings;
  readonly #protocol: Protocol;
  readonly #pacer = new RateLimitPacer();
  readonly #deadlines = new Deadlines();
  /** Headers of a call without a body or per-call headers, built once. */
  readonly #plainHeaders: Readonly<Record<string, string>>;
  #throttle: Promise<Throttle> | undefined;
  #lastRateLimit: RateLimitSnapshot | undefined;

  constructor(protocol: Protocol, options: ClientOptions | undefined) {
    this.#settings = resolveSettings(options);
    this.#protocol = protocol;
    this.#plainHeaders = Object.freeze(this.#buildHeaders(false, undefined));
  }

  /** The base URL requests go to. */
  get baseUrl(): string {
    return this.#settings.baseUrl;
  }

  /** The `X-RateLimit-*` values of the last response that carried them. */
  get rateLimit(): RateLimitSnapshot | undefined {
    return this.#lastRateLimit;
  }

  /** Sends `call` and returns its parsed payload. */
  async request<T>(call: ApiCall<T>, options?: RequestOptions): Promise<T> {
    const { data, text } = await this.#payload(call, options);
    return this.#parse(call, call.schema, data, text);
  }

  /** Sends a list `call` and returns its parsed items and `meta`. */
  async requestPage<T>(call: ApiCall<T[]>, options?: RequestOptions): Promise<PageData<T>> {
    const { data, meta, text } = await this.#payload(call, options);
    return {
      data: this.#parse(call, call.schema, data, text),
      meta: meta === undefined ? undefined : this.#parse(call, ListMetaSchema, meta, text),
    };
  }

  /** The payload of a successful answer, out of the variant's envelope. */
  async #payload<T>(call: ApiCall<T>, options: RequestOptions | undefined) {
    checkRequestOptions(options);
    const text = await this.#send(call, options);
    const payload = this.#protocol.unwrap(this.#parseJson(call, text));
    if (payload === undefined) {
      throw this.#invalidBody(call, `is not a ${this.#protocol.name} success envelope`, [], text);
    }
    return { ...payload, text };
  }

  /** Attempts `call` until it succeeds (its body text) or fails in a way not worth retrying. */
  async #send<T>(call: ApiCall<T>, options: RequestOptions | undefined): Promise<string> {
    const maxRetries = options?.maxRetries ?? this.#settings.maxRetries;
    const signal = options?.signal;
    for (let retry = 0; ; retry++) {
      const waiting = this.#pace(signal);
      if (waiting !== undefined) await waiting;
      const attempt = await this.#attempt(call, options);
      if (attempt.kind === 'response' && attempt.response.ok) return attempt.text;
      const delay = this.#retryDelay(call, attempt, retry, retry < maxRetries);
      if (delay instanceof Error) throw delay;
      await sleep(delay, signal);
    }
  }

  /** Milliseconds to wait before retrying, or the error to throw when no retry is allowed. */
  #retryDelay<T>(call: ApiCall<T>, attempt: Attempt, retry: number, canRetry: boolean): number | Error {
    const idempotent = isIdempotent(call.method);
    if (attempt.kind === 'timeout') {
      return canRetry && idempotent ? nextRetryDelay(retry) : this.#timeoutError(call, attempt.ms, idempotent);
    }
    if (attempt.kind === 'network') {
      const notSent = failedBeforeSending(attempt.code);
      return canRetry && (notSent || idempotent) ? nextRetryDelay(retry) : this.#connectionError(call, attempt, notSent || idempotent);
    }
    const { status, headers } = attempt.response;
    if (status === 429) {
      const wait = rateLimitWait(headers, Date.now());
      if (this.#settings.rateLimit !== false) this.#pacer.exhaust(wait ?? 1);
      const delay = wait === undefined ? nextRetryDelay(retry) : wait * 1000;
      return canRetry && delay <= this.#settings.maxRetryWait ? delay : this.#apiError(call, attempt, false, wait);
    }
    if (status >= 500 && canRetry && idempotent) {
      const wait = rateLimitWait(headers, Date.now());
      return wait === undefined || wait * 1000 > this.#settings.maxRetryWait ? nextRetryDelay(retry) : wait * 1000;
    }
    return this.#apiError(call, attempt, status >= 500 && !idempotent, undefined);
  }

  async #attempt<T>(call: ApiCall<T>, options: RequestOptions | undefined): Promise<Attempt> {
    const userSignal = options?.signal;
    const ms = options?.timeout ?? this.#settings.timeout;
    const deadline = this.#deadlines.signal(ms);
    // With a signal of the user's, this request needs its own controller that follows both.
    const own = userSignal === undefined ? undefined : followBoth(userSignal, deadline);
    try {
      if (userSignal?.aborted) throw userSignal.reason;
      const response = await this.#settings.fetch(this.#url(call), {
        method: call.method,
        headers: call.body === undefined && options?.headers === undefined ? this.#plainHeaders : this.#buildHeaders(call.body !== undefined, options),
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: own?.signal ?? deadline,
      });
      this.#observe(response.headers);
      return { kind: 'response', response, text: await response.text() };
    } catch (error) {
      if (userSignal?.aborted) throw userSignal.reason;
      if (deadline.aborted) return { kind: 'timeout', ms };
      return { kind: 'network', error, code: networkErrorCode(error) };
    } finally {
      own?.dispose();
      this.#released();
    }
  }

  #observe(headers: Headers): void {
    const snapshot = readRateLimit(headers, Date.now());
    if (snapshot === undefined) return;
    this.#lastRateLimit = snapshot;
    if (this.#settings.rateLimit !== false) this.#pacer.observe(snapshot, headers);
  }

  #released(): void {
    if (this.#settings.rateLimit !== false) this.#pacer.release();
  }

  /** Waits for room under the rate limit, when pacing is on; undefined when no wait is needed. */
  #pace(signal: AbortSignal | undefined): Promise<void> | undefined {
    signal?.throwIfAborted();
    const { rateLimit } = this.#settings;
    if (rateLimit === false) return undefined;
    if (rateLimit !== undefined) return this.#throttled(rateLimit, signal);
    return this.#pacer.acquire(signal);
  }

  async #throttled(rateLimit: { limit: number; interval: number }, signal: AbortSignal | undefined): Promise<void> {
    await raceAbort((await this.#loadThrottle(rateLimit))(), signal);
    await this.#pacer.acquire(signal);
  }

  #loadThrottle(rateLimit: { limit: number; interval: number }): Promise<Throttle> {
    this.#throttle ??= import('p-throttle').then(({ default: pThrottle }) => pThrottle(rateLimit)(async () => undefined));
    return this.#throttle;
  }

  #url<T>(call: ApiCall<T>): string {
    const url = `${this.#settings.baseUrl}/${call.path}`;
    if (call.query === undefined) return url;
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(call.query)) {
      if (value !== undefined) query.set(key, String(value));
    }
    const search = query.toString();
    return search === '' ? url : `${url}?${search}`;
  }

  #buildHeaders(hasBody: boolean, options: RequestOptions | undefined): Record<string, string> {
    return {
      accept: 'application/json',
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
      ...this.#settings.headers,
      ...options?.headers,
      ...this.#protocol.authHeaders(this.#settings.apiKey),
    };
  }

  #parseJson<T>(call: ApiCall<T>, text: string): unknown {
    if (text === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw this.#invalidBody(call, 'is not JSON', [], text);
    }
  }

  #parse<T>(call: ApiCall<unknown>, schema: ZodMiniType<T>, value: unknown, text: string): T {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issues = result.error.issues.map(describeIssue);
    const first = issues[0];
    const where = first === undefined || first.path.length === 0 ? '' : ` at ${first.path.join('.')}`;
    throw this.#invalidBody(call, `does not match the expected shape${where}: ${first?.message ?? 'invalid'}`, issues, text);
  }

  #invalidBody(call: ApiCall<unknown>, problem: string, issues: ResponseValidationError['issues'], text: string) {
    return new ResponseValidationError(
      `${call.method} /${call.path} returned a body that ${problem}`,
      issues,
      redactBody(text, this.#settings.apiKey),
    );
  }

  #apiError<T>(call: ApiCall<T>, attempt: Attempt & { kind: 'response' }, mayHaveBeenProcessed: boolean, retryAfter: number | undefined): ApiError {
    const { response } = attempt;
    return errorFromResponse(
      response,
      redactBody(attempt.text, this.#settings.apiKey),
      { method: call.method, path: `/${call.path}`, mayHaveBeenProcessed },
      readRateLimit(response.headers, Date.now()),
      retryAfter,
    );
  }

  #timeoutError<T>(call: ApiCall<T>, ms: number, idempotent: boolean): TimeoutError {
    const base = `${call.method} /${call.path} timed out after ${ms} ms`;
    return idempotent
      ? new TimeoutError(`${base}; retries used up`, false)
      : new TimeoutError(`${base}; the request may have been processed, so it was not retried to avoid a duplicate`, true);
  }

  #connectionError<T>(call: ApiCall<T>, attempt: Attempt & { kind: 'network' }, safeToRetry: boolean): ConnectionError {
    const code = attempt.code === undefined ? '' : ` (${attempt.code})`;
    const base = `${call.method} /${call.path} failed to connect${code}`;
    const message = safeToRetry
      ? `${base}; retries used up`
      : `${base} after the request may have been sent; it was not retried to avoid a duplicate`;
    return new ConnectionError(message, !safeToRetry, { cause: attempt.error });
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A controller aborted by either signal; `dispose` detaches it. */
function followBoth(a: AbortSignal, b: AbortSignal): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onA = () => controller.abort(a.reason);
  const onB = () => controller.abort(b.reason);
  a.addEventListener('abort', onA, { once: true });
  b.addEventListener('abort', onB, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      a.removeEventListener('abort', onA);
      b.removeEventListener('abort', onB);
    },
  };
}
