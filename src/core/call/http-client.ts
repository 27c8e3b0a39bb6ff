// The one request function every endpoint goes through.
import { compareShape, isEmptyDrift, type ShapeDrift } from '../../contract/drift.js';
import { shapeOfSchema } from '../../contract/shape.js';
import { logDriftOnce, sendDrift, type DriftHandler } from '../../contract/drift-report.js';
import { ListMetaSchema, type ListMeta } from '../../schemas/common.js';
import type { ZodIssueLike } from '../../shared/describe.js';
import type { InvalidArgumentError } from '../../shared/errors.js';
import { describeIssue, type ResponseIssue } from '../errors/classes.js';
import { invalidBodyError } from '../errors/failures.js';
import type { RateLimitSnapshot } from '../wire/headers.js';
import { Pacing } from '../rate-limit/pacing.js';
import { ApiPromise } from './api-promise.js';
import { HookRunner } from '../transport/hooks.js';
import { Transport } from '../transport/transport.js';
import { shapeOf, tolerantBody } from './response-reader.js';
import { readArguments } from './arguments.js';
import type { CallSpec, PreparedCall, ServiceResponse } from '../wire/call.js';
import {
  checkRequestOptions,
  resolveSettings,
  type HttpClientOptions,
  type ClientSettings,
  type RequestOptions,
} from './options.js';
import { fillRoute, showPath } from './path.js';
import { searchParamsOf } from './query.js';
import { serializeBody } from './request-body.js';

/** What differs between the service's variants at the HTTP level. */
export interface Protocol {
  /** Human name, used in error messages (e.g. "Variant 1"). */
  readonly name: string;
  /** Headers that authenticate a request with `apiKey`. */
  authHeaders(apiKey: string): Record<string, string>;
  /** The payload and list `meta` of a success body; undefined if it is not this variant's envelope. */
  unwrap(body: unknown): { data: unknown; meta: unknown } | undefined;
}

/** The items, pagination info and ServiceResponse of one list response. */
export interface PageData<T> {
  data: T[];
  meta: ListMeta | undefined;
  received: ServiceResponse;
}

/**
 * The one request function every endpoint goes through: it checks the call, hands it to the
 * transport (ky, retries, pacing) and reads the answer, tolerantly: a field bizmsg guessed that is
 * missing or of another type is left out, and what differs is reported (`onDrift`, else the log).
 * The API key lives only in private fields.
 */
export class HttpClient {
  readonly #settings: ClientSettings;
  readonly #protocol: Protocol;
  readonly #pacing: Pacing;
  readonly #transport: Transport;
  /** Authentication headers, put on top of any per-call headers. */
  readonly #auth: Readonly<Record<string, string>>;
  /** Where what an answer differs in goes; undefined when nobody would see it (no onDrift, log below warn). */
  readonly #drift: DriftHandler | undefined;

  constructor(protocol: Protocol, options: HttpClientOptions | undefined) {
    const settings = resolveSettings(options);
    this.#settings = settings;
    this.#protocol = protocol;
    this.#auth = protocol.authHeaders(settings.apiKey);
    const { logger } = settings;
    this.#drift =
      settings.onDrift ??
      (logger?.enabled('warn') === true
        ? logDriftOnce(
            (level, message) => logger.log(level, message),
            'read in the expected type where nothing is lost, else left out of the result',
          )
        : undefined);
    const { rateLimitStore: store } = settings;
    this.#pacing = new Pacing(
      settings.rateLimit,
      settings.maxRetryWait,
      store === undefined ? undefined : { store, apiKey: settings.apiKey, logger: settings.logger },
    );
    this.#transport = new Transport(
      {
        apiKey: settings.apiKey,
        baseUrl: settings.baseUrl,
        fetch: settings.fetch,
        maxRetryWait: settings.maxRetryWait,
        timeout: settings.timeout,
        headers: { accept: 'application/json', ...settings.headers, ...this.#auth },
        hooks: new HookRunner(settings.hooks, settings.apiKey),
        onWait: settings.onWait,
        logger: settings.logger,
      },
      this.#pacing,
    );
  }

  /** The base URL requests go to. */
  get baseUrl(): string {
    return this.#settings.baseUrl;
  }

  /** The `X-RateLimit-*` values of the last response that carried them. */
  get rateLimit(): RateLimitSnapshot | undefined {
    return this.#pacing.last;
  }

  /** Sends `call`; the promise resolves with its parsed payload. */
  request<T, R = T>(call: CallSpec<T, R>, options?: RequestOptions): ApiPromise<R> {
    let prepared: PreparedCall;
    try {
      prepared = this.#prepare(call, options);
    } catch (error) {
      return ApiPromise.reject(error as InvalidArgumentError);
    }
    return new ApiPromise(this.#transport.send(prepared), (received) => this.#result(call, received));
  }

  /** Sends a list `call` and returns its parsed items, `meta` and ServiceResponse. */
  async requestPage<T>(call: CallSpec<T[]>, options?: RequestOptions, walkedTo?: number): Promise<PageData<T>> {
    const received = await this.#transport.send(this.#prepare(call, options));
    const page = { ...this.#read(call, received, true), received };
    if (walkedTo !== undefined) this.#checkPageAnswered(call, walkedTo, page.meta, received);
    return page;
  }

  /** A server that ignores `page` would have a walk ask for the same next page forever. */
  #checkPageAnswered(
    call: CallSpec<unknown>,
    asked: number,
    meta: ListMeta | undefined,
    received: ServiceResponse,
  ): void {
    if (meta === undefined || meta.current_page === asked) return;
    throw this.#invalidBody(
      call,
      `is page ${meta.current_page} (meta.current_page), not page ${asked} asked for; the walk stops here instead of asking again`,
      [{ path: ['meta', 'current_page'], code: 'invalid_value', message: `must be ${asked}` }],
      received,
    );
  }

  /** Checks everything the caller gave, so that a mistake throws before anything is sent. */
  #prepare(call: CallSpec<unknown>, rawOptions: RequestOptions | undefined): PreparedCall {
    return readArguments(`the arguments of ${call.method} /${call.path}`, () => this.#prepared(call, rawOptions));
  }

  #prepared(call: CallSpec<unknown>, rawOptions: RequestOptions | undefined): PreparedCall {
    const options = checkRequestOptions(rawOptions);
    const path = fillRoute(call.path, call.ids);
    const shownPath = showPath(path, this.#settings.apiKey);
    const { body, text } = this.#body(call, shownPath);
    return {
      method: call.method,
      path,
      route: call.path,
      shownPath,
      searchParams: searchParamsOf(call, shownPath),
      json: text === undefined ? undefined : body,
      stringifyJson: () => text!,
      headers: options?.headers === undefined ? undefined : { ...options.headers, ...this.#auth },
      signal: options?.signal,
      timeout: options?.timeout ?? this.#settings.timeout,
      maxRetries: options?.maxRetries ?? this.#settings.maxRetries,
      completeMessage: call.completeMessage,
    };
  }

  /** The body of a call that sends one (POST, PUT), its phones written and serialised once; none otherwise. */
  #body(call: CallSpec<unknown>, shownPath: string): { body: unknown; text: string | undefined } {
    if (call.method !== 'POST' && call.method !== 'PUT') return { body: undefined, text: undefined };
    const what = `The body of ${call.method} /${shownPath}`;
    const body = call.encodeBody === undefined ? call.body : call.encodeBody(call.body, what);
    return { body, text: serializeBody(body, what) };
  }

  #result<T, R>(call: CallSpec<T, R>, received: ServiceResponse): R {
    const { data } = this.#read(call, received, false);
    return call.map === undefined ? (data as unknown as R) : call.map(data);
  }

  /**
   * The payload (and a list's `meta`) of a successful answer, out of the variant's envelope, read
   * tolerantly: compared with its shape first when someone listens (the drift reported), else only
   * when it does not parse as it is.
   */
  #read<T>(
    call: CallSpec<T, unknown>,
    received: ServiceResponse,
    list: boolean,
  ): { data: T; meta: ListMeta | undefined } {
    const body = this.#parseJson(call, received);
    const payload = this.#protocol.unwrap(body);
    if (payload === undefined)
      throw this.#invalidBody(call, `is not a ${this.#protocol.name} success envelope`, [], received);
    const enveloped = payload.data !== body;
    const shape = shapeOf(call.schema, enveloped, list);
    const drift = this.#drift;
    let value = body;
    if (drift !== undefined) {
      const found = compareShape(shapeOfSchema(shape), body);
      if (!isEmptyDrift(found)) this.#sendDrift(call, found, drift);
      value = found.value;
    }
    let read = shape.safeParse(value, { reportInput: true });
    if (!read.success && drift === undefined) {
      value = tolerantBody(shape, body);
      read = shape.safeParse(value, { reportInput: true });
    }
    if (!read.success) throw this.#unreadable(call, read.error.issues, received);
    if (!enveloped) return { data: read.data as T, meta: undefined };
    // Never tolerant (only its numbers given as text are read): a walk over a meta it cannot read
    // would stop short, and a sync would take the rest for gone.
    const given = (value as { meta?: unknown }).meta ?? payload.meta;
    const meta = !list || given === undefined ? undefined : ListMetaSchema.safeParse(given, { reportInput: true });
    if (meta?.success === false)
      throw this.#unreadable(
        call,
        meta.error.issues.map((issue) => ({ ...issue, path: ['meta', ...issue.path] })),
        received,
      );
    // Whole numbers, as page numbers and counts are: every field of its schema is an int(), which reads any number.
    const fraction =
      meta &&
      (Object.keys(ListMetaSchema.shape) as (keyof ListMeta)[]).find((key) => !Number.isInteger(meta.data[key]));
    if (meta !== undefined && fraction !== undefined) {
      const input = meta.data[fraction];
      const issue = { code: 'invalid_type', expected: 'int', path: ['meta', fraction], message: 'Expected int', input };
      throw this.#unreadable(call, [issue], received);
    }
    return { data: (read.data as { data: T }).data, meta: meta?.data };
  }

  #sendDrift(call: CallSpec<unknown>, { missing, unexpected, mismatched }: ShapeDrift, drift: DriftHandler): void {
    const operation = `${call.method} /${call.path}`;
    sendDrift({ source: 'response', operation, missing, unexpected, mismatched }, drift, (error) =>
      this.#settings.logger?.log('error', `bizmsg: onDrift threw: ${String(error)}`),
    );
  }

  #parseJson(call: CallSpec<unknown>, received: ServiceResponse): unknown {
    if (received.text === '') return undefined;
    try {
      return JSON.parse(received.text);
    } catch {
      throw this.#invalidBody(call, 'is not JSON', [], received);
    }
  }

  /** The error of an answer that lacks what the method promises (a message id, a record's id, a list's items). */
  #unreadable(call: CallSpec<unknown>, zodIssues: readonly ZodIssueLike[], received: ServiceResponse) {
    const issues = zodIssues.map(describeIssue);
    const first = issues[0];
    const where = first === undefined || first.path.length === 0 ? '' : ` at ${first.path.join('.')}`;
    return this.#invalidBody(
      call,
      `does not match the expected shape${where}: ${first?.message ?? 'invalid'}`,
      issues,
      received,
    );
  }

  #invalidBody(call: CallSpec<unknown>, problem: string, issues: readonly ResponseIssue[], received: ServiceResponse) {
    const path = showPath(fillRoute(call.path, call.ids), this.#settings.apiKey);
    return invalidBodyError({ method: call.method, path }, problem, issues, received, this.#settings.apiKey);
  }
}
