import type { ZodMiniType } from 'zod/mini';
import { ListMetaSchema, type ListMeta } from '../schemas/common.js';
import { Deadlines } from './deadline.js';
import { isRecord } from './guards.js';
import { describeIssue } from './describe-issue.js';
import { ConnectionError, InvalidArgumentError, ResponseValidationError, TimeoutError, type ApiError } from './errors.js';
import { errorFromResponse } from './error-response.js';
import { checkRequestOptions, resolveSettings, type ClientOptions, type ClientSettings, type RequestOptions } from './options.js';
import type { Protocol } from './protocol.js';
import { readRateLimit, type RateLimitSnapshot } from './rate-limit-headers.js';
import { RateLimitPacer } from './rate-limit.js';
import { redactBody, redactHeaders, redactText } from './redact.js';
import { describeValue, serializeBody } from './request-body.js';
import { isIdempotent, mayHaveTakenEffect, networkErrorCode, rateLimitWait, retryDecision } from './retry.js';
import { sleep } from './sleep.js';
/** One endpoint call, as the resource classes describe it. */
export interface ApiCall<T> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path below the base URL, ids already encoded (see `pathOf`). */
  path: string;
  /** Query parameters; `undefined` values are left out. */
  query?: object | undefined;
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
  | { kind: 'response'; status: number; headers: Headers; response: Response; text: string }
  | { kind: 'timeout'; ms: number }
  | { kind: 'network'; error: unknown; code: string | undefined };

/** A call checked and prepared once, before its first attempt. */
interface PreparedCall {
  call: ApiCall<unknown>;
  url: string;
  init: { method: string; headers: Readonly<Record<string, string>>; body: string | undefined };
  options: RequestOptions | undefined;
}

/** A successful answer: status, body text, and whether the request may have taken effect. */
interface Reply {
  status: number;
  text: string;
  processed: boolean;
}

/** Whether an earlier attempt, or the last one, may have taken effect on the service. */
interface Processed {
  earlier: boolean;
  now: boolean;
}

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
    const { data, reply } = await this.#payload(call, options);
    return this.#parse(call, call.schema, data, reply);
  }

  /** Sends a list `call` and returns its parsed items and `meta`. */
  async requestPage<T>(call: ApiCall<T[]>, options?: RequestOptions): Promise<PageData<T>> {
    const { data, meta, reply } = await this.#payload(call, options);
    return {
      data: this.#parse(call, call.schema, data, reply),
      meta: meta === undefined ? undefined : this.#parse(call, ListMetaSchema, meta, reply),
    };
  }

  /** The payload of a successful answer, out of the variant's envelope. */
  async #payload<T>(call: ApiCall<T>, options: RequestOptions | undefined) {
    const reply = await this.#send(this.#prepare(call, options));
    const payload = this.#protocol.unwrap(this.#parseJson(call, reply));
    if (payload === undefined) {
      throw this.#invalidBody(call, `is not a ${this.#protocol.name} success envelope`, [], reply);
    }
    return { ...payload, reply };
  }

  /** Checks everything the caller gave, so that a mistake throws before anything is sent. */
  #prepare(call: ApiCall<unknown>, rawOptions: RequestOptions | undefined): PreparedCall {
    const options = checkRequestOptions(rawOptions);
    const body = call.body === undefined ? undefined : serializeBody(call.body, `The body of ${call.method} /${call.path}`);
    const headers =
      body === undefined && options?.headers === undefined ? this.#plainHeaders : this.#buildHeaders(body !== undefined, options);
    return { call, url: this.#url(call), init: { method: call.method, headers, body }, options };
  }

  /** Attempts a call until it succeeds or fails in a way not worth retrying. */
  async #send(prepared: PreparedCall): Promise<Reply> {
    const { call, options } = prepared;
    const limits = { maxRetries: options?.maxRetries ?? this.#settings.maxRetries, maxRetryWait: this.#settings.maxRetryWait };
    let earlier = false;
    for (let retry = 0; ; retry++) {
      const waiting = this.#pace(options?.signal);
      if (waiting !== undefined) await waiting;
      const attempt = await this.#attempt(prepared);
      const now = mayHaveTakenEffect(call.method, attempt);
      if (attempt.kind === 'response') {
        if (attempt.response.ok) return { status: attempt.status, text: attempt.text, processed: earlier || now };
        if (attempt.status === 429) this.#pauseAfter429(attempt.headers);
      }
      const decision = retryDecision(call.method, attempt, retry, limits, Date.now());
      if (!decision.retry) throw this.#failure(call, attempt, { earlier, now }, decision.retryAfter);
      earlier ||= now;
      await sleep(decision.delay, options?.signal);
    }
  }

  async #attempt({ url, init, options }: PreparedCall): Promise<Attempt> {
    const userSignal = options?.signal;
    const ms = options?.timeout ?? this.#settings.timeout;
    const deadline = this.#deadlines.signal(ms);
    // With a signal of the user's, this request needs its own controller that follows both.
    const own = userSignal === undefined ? undefined : followBoth(userSignal, deadline);
    try {
      if (userSignal?.aborted) throw userSignal.reason;
      const response = await this.#settings.fetch(url, { ...init, signal: own?.signal ?? deadline });
      this.#observe(response.headers);
      const text = await response.text();
      return { kind: 'response', status: response.status, headers: response.headers, response, text };
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

  /** A 429 holds every call of this client for the wait it asks (bounded by `maxRetryWait`). */
  #pauseAfter429(headers: Headers): void {
    if (this.#settings.rateLimit === false) return;
    const seconds = rateLimitWait(headers, Date.now()) ?? 1;
    this.#pacer.pause(Math.min(seconds * 1000, this.#settings.maxRetryWait));
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

  #url(call: ApiCall<unknown>): string {
    const url = `${this.#settings.baseUrl}/${call.path}`;
    if (call.query === undefined) return url;
    if (!isRecord(call.query)) {
      throw new InvalidArgumentError(`The parameters of ${call.method} /${call.path} must be an object, got ${describeValue(call.query)}.`);
    }
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(call.query)) {
      if (value === undefined) continue;
      if (!isQueryValue(value)) {
        throw new InvalidArgumentError(
          `The query parameter \`${key}\` of ${call.method} /${call.path} must be a string, a finite number or a boolean, got ${describeValue(value)}.`,
        );
      }
      query.set(key, String(value));
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

  #parseJson(call: ApiCall<unknown>, reply: Reply): unknown {
    if (reply.text === '') return undefined;
    try {
      return JSON.parse(reply.text);
    } catch {
      throw this.#invalidBody(call, 'is not JSON', [], reply);
    }
  }

  #parse<T>(call: ApiCall<unknown>, schema: ZodMiniType<T>, value: unknown, reply: Reply): T {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issues = result.error.issues.map(describeIssue);
    const first = issues[0];
    const where = first === undefined || first.path.length === 0 ? '' : ` at ${first.path.join('.')}`;
    throw this.#invalidBody(call, `does not match the expected shape${where}: ${first?.message ?? 'invalid'}`, issues, reply);
  }

  #invalidBody(call: ApiCall<unknown>, problem: string, issues: ResponseValidationError['issues'], reply: Reply) {
    const note = processedNote(call.method, { earlier: false, now: reply.processed });
    const suffix = note === undefined ? '' : ` (HTTP ${reply.status}; ${note})`;
    return new ResponseValidationError(
      `${call.method} /${call.path} returned a body that ${problem}${suffix}`,
      issues,
      redactBody(reply.text, this.#settings.apiKey),
      { status: reply.status, mayHaveBeenProcessed: reply.processed },
    );
  }

  #failure(call: ApiCall<unknown>, attempt: Attempt, processed: Processed, retryAfter: number | undefined) {
    if (attempt.kind === 'timeout') return this.#timeoutError(call, attempt.ms, processed);
    if (attempt.kind === 'network') return this.#connectionError(call, attempt, processed);
    return this.#apiError(call, attempt, processed, retryAfter);
  }

  #apiError(call: ApiCall<unknown>, attempt: Attempt & { kind: 'response' }, processed: Processed, retryAfter: number | undefined): ApiError {
    const { apiKey } = this.#settings;
    const { response } = attempt;
    const headers = redactHeaders(response.headers, apiKey);
    const note = processedNote(call.method, processed);
    return errorFromResponse(
      { status: response.status, statusText: redactText(response.statusText, apiKey), headers },
      redactBody(attempt.text, apiKey),
      {
        method: call.method,
        path: `/${call.path}`,
        mayHaveBeenProcessed: processed.earlier || processed.now,
        ...(note === undefined ? {} : { processedNote: note }),
      },
      readRateLimit(headers, Date.now()),
      retryAfter,
    );
  }

  #timeoutError(call: ApiCall<unknown>, ms: number, processed: Processed): TimeoutError {
    const base = `${call.method} /${call.path} timed out after ${ms} ms`;
    if (!isIdempotent(call.method)) {
      return new TimeoutError(`${base}; the request may have been processed, so it was not retried to avoid a duplicate`, true);
    }
    return new TimeoutError(withNote(`${base}; retries used up`, processedNote(call.method, processed)), processed.earlier || processed.now);
  }

  #connectionError(call: ApiCall<unknown>, attempt: Attempt & { kind: 'network' }, processed: Processed): ConnectionError {
    const code = attempt.code === undefined ? '' : ` (${attempt.code})`;
    const base = `${call.method} /${call.path} failed to connect${code}`;
    const flag = processed.earlier || processed.now;
    const message =
      !isIdempotent(call.method) && processed.now
        ? `${base} after the request may have been sent; it was not retried to avoid a duplicate`
        : withNote(`${base}; retries used up`, processedNote(call.method, processed));
    return new ConnectionError(message, flag, { cause: attempt.error });
  }
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

function isQueryValue(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
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
