import type { ZodMiniType } from 'zod/mini';
import { ListMetaSchema, type ListMeta } from '../../schemas/common.js';
import { ApiPromise } from '../results/api-promise.js';
import { readArguments } from './arguments.js';
import { describeIssue } from '../errors/response-issue.js';
import { InvalidArgumentError } from '../errors/classes.js';
import { invalidBodyError } from '../errors/failures.js';
import { isRecord } from '../../shared/guards.js';
import {
  checkRequestOptions,
  resolveSettings,
  type ClientOptions,
  type ClientSettings,
  type RequestOptions,
} from './options.js';
import { RequestPacing } from '../rate-limit/pacing.js';
import { fillRoute } from './path.js';
import type { Protocol } from './protocol.js';
import type { RateLimitSnapshot } from '../rate-limit/headers.js';
import { redactText } from '../errors/redact.js';
import { describeValue, showValue } from '../../shared/describe.js';
import { serializeBody } from './request-body.js';
import { Transport, wrapHooks, type Exchange, type Reply } from '../transport/transport.js';

/** One endpoint call, as the resource classes describe it. */
export interface ApiCall<T, R = T> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Route below the base URL; each `{id}` is filled, in order, from `ids`. */
  path: string;
  ids?: readonly unknown[];
  /** Query parameters; `undefined` values are left out. */
  query?: object | undefined;
  body?: unknown;
  /** Schema of the payload inside the variant's envelope. */
  schema: ZodMiniType<T>;
  /** Turns the parsed payload into the result (e.g. a default for an empty body). */
  map?: (value: T) => R;
}

/** What the request is, without what its answer is parsed with. */
type CallInfo = Pick<ApiCall<unknown>, 'method' | 'path' | 'ids' | 'query' | 'body'>;

/** The items, pagination info and reply of one list response. */
export interface PageData<T> {
  data: T[];
  meta: ListMeta | undefined;
  reply: Reply;
}

/**
 * The one request function every endpoint goes through: it checks the call, hands it to the
 * transport (ky, retries, pacing) and parses the answer. The API key lives only in private fields.
 */
export class HttpClient {
  readonly #settings: ClientSettings;
  readonly #protocol: Protocol;
  readonly #pacing: RequestPacing;
  readonly #transport: Transport;
  /** Authentication headers, put on top of any per-call headers. */
  readonly #auth: Readonly<Record<string, string>>;

  constructor(protocol: Protocol, options: ClientOptions | undefined) {
    const settings = resolveSettings(options);
    this.#settings = settings;
    this.#protocol = protocol;
    this.#auth = protocol.authHeaders(settings.apiKey);
    const { rateLimitStore: store } = settings;
    this.#pacing = new RequestPacing(
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
        headers: { accept: 'application/json', ...settings.headers, ...this.#auth },
        hooks: wrapHooks(settings.hooks, settings.apiKey),
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
  request<T, R = T>(call: ApiCall<T, R>, options?: RequestOptions): ApiPromise<R> {
    let exchange: Exchange;
    try {
      exchange = this.#prepare(call, options);
    } catch (error) {
      return ApiPromise.reject(error as InvalidArgumentError);
    }
    return new ApiPromise(this.#transport.send(exchange), (reply) => this.#result(call, reply));
  }

  /** Sends a list `call` and returns its parsed items, `meta` and reply. */
  async requestPage<T>(call: ApiCall<T[]>, options?: RequestOptions, walkedTo?: number): Promise<PageData<T>> {
    const reply = await this.#transport.send(this.#prepare(call, options));
    const { data, meta } = this.#payload(call, reply);
    const page = {
      data: this.#parse(call, call.schema, data, reply),
      meta: meta === undefined ? undefined : this.#parse(call, ListMetaSchema, meta, reply),
      reply,
    };
    if (walkedTo !== undefined) this.#checkPageAnswered(call, walkedTo, page.meta, reply);
    return page;
  }

  /** A server that ignores `page` would have a walk ask for the same next page forever. */
  #checkPageAnswered(call: CallInfo, asked: number, meta: ListMeta | undefined, reply: Reply): void {
    if (meta === undefined || meta.current_page === asked) return;
    throw this.#invalidBody(
      call,
      `is page ${meta.current_page} (meta.current_page), not page ${asked} asked for; the walk stops here instead of asking again`,
      [{ path: ['meta', 'current_page'], code: 'invalid_value', message: `must be ${asked}` }],
      reply,
    );
  }

  /** Checks everything the caller gave, so that a mistake throws before anything is sent. */
  #prepare(call: CallInfo, rawOptions: RequestOptions | undefined): Exchange {
    return readArguments(`the arguments of ${call.method} /${call.path}`, () => this.#exchange(call, rawOptions));
  }

  #exchange(call: CallInfo, rawOptions: RequestOptions | undefined): Exchange {
    const options = checkRequestOptions(rawOptions);
    const path = fillRoute(call.path, call.ids);
    const shownPath = showPath(path, this.#settings.apiKey);
    const text =
      call.method === 'POST' || call.method === 'PUT'
        ? serializeBody(call.body, `The body of ${call.method} /${shownPath}`)
        : undefined;
    return {
      method: call.method,
      path,
      route: call.path,
      shownPath,
      searchParams: searchParamsOf(call, shownPath),
      json: text === undefined ? undefined : call.body,
      stringifyJson: () => text!,
      headers: options?.headers === undefined ? undefined : { ...options.headers, ...this.#auth },
      signal: options?.signal,
      timeout: options?.timeout ?? this.#settings.timeout,
      maxRetries: options?.maxRetries ?? this.#settings.maxRetries,
    };
  }

  #result<T, R>(call: ApiCall<T, R>, reply: Reply): R {
    const value = this.#parse(call, call.schema, this.#payload(call, reply).data, reply);
    return call.map === undefined ? (value as unknown as R) : call.map(value);
  }

  /** The payload of a successful answer, out of the variant's envelope. */
  #payload(call: CallInfo, reply: Reply): { data: unknown; meta: unknown } {
    const payload = this.#protocol.unwrap(this.#parseJson(call, reply));
    if (payload === undefined)
      throw this.#invalidBody(call, `is not a ${this.#protocol.name} success envelope`, [], reply);
    return payload;
  }

  #parseJson(call: CallInfo, reply: Reply): unknown {
    if (reply.text === '') return undefined;
    try {
      return JSON.parse(reply.text);
    } catch {
      throw this.#invalidBody(call, 'is not JSON', [], reply);
    }
  }

  #parse<T>(call: CallInfo, schema: ZodMiniType<T>, value: unknown, reply: Reply): T {
    const result = schema.safeParse(value, { reportInput: true });
    if (result.success) return result.data;
    const issues = result.error.issues.map(describeIssue);
    const first = issues[0];
    const where = first === undefined || first.path.length === 0 ? '' : ` at ${first.path.join('.')}`;
    throw this.#invalidBody(
      call,
      `does not match the expected shape${where}: ${first?.message ?? 'invalid'}`,
      issues,
      reply,
    );
  }

  #invalidBody(call: CallInfo, problem: string, issues: Parameters<typeof invalidBodyError>[2], reply: Reply) {
    const path = showPath(fillRoute(call.path, call.ids), this.#settings.apiKey);
    return invalidBodyError({ method: call.method, path }, problem, issues, reply, this.#settings.apiKey);
  }
}

/** The query as ky's `searchParams`, undefined when empty; a value a URL cannot carry is an argument error. */
function searchParamsOf(call: CallInfo, path: string): Record<string, string | number | boolean> | undefined {
  if (call.query === undefined) return undefined;
  if (!isRecord(call.query)) {
    throw new InvalidArgumentError(
      `The parameters of ${call.method} /${path} must be an object, got ${describeValue(call.query)}.`,
    );
  }
  let params: Record<string, string | number | boolean> | undefined;
  for (const [key, value] of Object.entries(call.query)) {
    if (value === undefined) continue;
    if (!isQueryValue(value)) {
      throw new InvalidArgumentError(
        `The query parameter \`${key}\` of ${call.method} /${path} must be a string, a finite number or a boolean, got ${showValue(value)}.`,
      );
    }
    (params ??= {})[key] = value;
  }
  return params;
}

function isQueryValue(value: unknown): value is string | number | boolean {
  return (
    typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
  );
}

/** How much of a path messages and log lines show: an id of any length must not make them huge. */
const SHOWN_PATH_CHARS = 200;

/** The path as messages, log lines and spans show it: without the key, and cut short. */
function showPath(path: string, apiKey: string): string {
  const shown = redactText(path, apiKey);
  return shown.length > SHOWN_PATH_CHARS ? `${shown.slice(0, SHOWN_PATH_CHARS)}…` : shown;
}
