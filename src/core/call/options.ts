// The client options and per-call options: defaults, environment fallbacks, and a clear
// InvalidArgumentError for anything that cannot work, before anything is sent.
import type { DriftHandler } from '../../contract/drift-report.js';
import { describeValue, showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { checkInteger } from '../../shared/guards.js';
import { resolveLogger, type LevelledLogger, type Logger, type LogLevel } from '../../shared/logger.js';
import { checkMs, MAX_TIMER_MS } from '../../shared/timers.js';
import { isRateLimitStore, type RateLimitStore } from '../rate-limit/store.js';
import { checkHooks, type ClientHooks } from '../transport/hooks.js';
import type { WaitEvent } from '../transport/transport.js';
import { readArguments } from './arguments.js';

/**
 * The options every client has, the ones core reads (the clients add theirs: `ClientOptions`).
 */
export interface HttpClientOptions {
  /**
   * API key; defaults to the `BIZMSG_API_KEY` environment variable. A secret: never ship it in
   * browser code.
   * @default process.env.BIZMSG_API_KEY
   */
  apiKey?: string | undefined;
  /**
   * Base URL ending with `/api/v1`; defaults to the `BIZMSG_BASE_URL` environment variable.
   * @default process.env.BIZMSG_BASE_URL
   */
  baseUrl?: string | undefined;
  /**
   * Milliseconds one attempt may take, body included.
   * @default 30000
   */
  timeout?: number | undefined;
  /**
   * Retries after the first attempt, where retrying is safe.
   * @default 2
   */
  maxRetries?: number | undefined;
  /**
   * Longest wait (ms) a 429 may ask for before the error is thrown instead.
   * @default 60000
   */
  maxRetryWait?: number | undefined;
  /**
   * Client-side pacing on top of the server's `X-RateLimit-*` headers: at most `limit`
   * requests per `interval` ms. `false` turns all pacing off, headers included.
   * @default undefined (paced from the `X-RateLimit-*` headers only)
   */
  rateLimit?:
    | false
    | {
        /** Requests at most per `interval`. */
        limit: number;
        /** The window, in ms. */
        interval: number;
      }
    | undefined;
  /**
   * Where the `X-RateLimit-*` budget is kept, so that every process sending with the same key
   * shares it (e.g. `redisRateLimitStore(redis)` from `bizmsg/redis`); default: in this client
   * only. Keys in the store are a SHA-256 hash of the API key. While the store fails or takes
   * over 2 s, the client paces itself alone (one `warn` log line) and asks the store again
   * every second. Cannot be combined with `rateLimit: false`.
   * @default undefined (a budget in this client only)
   */
  rateLimitStore?: RateLimitStore | undefined;
  /**
   * A fetch implementation; by default `globalThis.fetch`, read at call time (so msw and other
   * interceptors installed later still apply).
   * @default globalThis.fetch
   */
  fetch?: typeof fetch | undefined;
  /**
   * Headers added to every request.
   * @default {}
   */
  headers?: Record<string, string> | undefined;
  /**
   * Functions run at each step of a call (`beforeRequest`, `afterResponse`, `beforeRetry`,
   * `beforeError`), after the client's own work: the authentication header is already set when a
   * `beforeRequest` hook runs. What a hook throws is rejected as a `HookError`.
   */
  hooks?: ClientHooks | undefined;
  /**
   * Called before the client waits: for room in the rate window (`reason: 'pacing'`) or before a
   * retry (`'retry'`), with how long (`ms`), the call and the attempt. What it throws is logged,
   * never the call's failure.
   */
  onWait?: ((wait: WaitEvent) => void) | undefined;
  /**
   * What to log: `off`, `error`, `warn`, `info` or `debug`; else the `BIZMSG_LOG` environment variable.
   * @default process.env.BIZMSG_LOG, else 'warn'
   */
  logLevel?: LogLevel | undefined;
  /**
   * Where log lines go; lines never hold the API key.
   * @default console
   */
  logger?: Logger | undefined;
  /**
   * Called with how an answer differs from what bizmsg expects (a field missing, unknown or of
   * another JSON type; paths and type names, never a value), when it does. The call succeeds all
   * the same: a field bizmsg guessed that came with another type is read in the expected type
   * where nothing is lost (an epoch time as its ISO 8601 text, a wrapped list as its items), else
   * left out of the result.
   * @default each (operation, path) logged once: missing and mismatched at `warn`, unknown at `info`
   */
  onDrift?: DriftHandler | undefined;
}

/** Options of a single call; they override the client's. */
export interface RequestOptions {
  /** Cancels the request and any wait before a retry. */
  signal?: AbortSignal | undefined;
  /** Milliseconds one attempt may take. */
  timeout?: number | undefined;
  /** Retries after the first attempt, where retrying is safe. */
  maxRetries?: number | undefined;
  /** Headers added to this request. */
  headers?: Record<string, string> | undefined;
}

/** Options of a `list()` call. */
export interface ListRequestOptions extends RequestOptions {
  /**
   * Pages fetched ahead, at most this many at once, when iterating (0: one at a time).
   * @default 0
   */
  prefetch?: number | undefined;
}

/** Client options after defaults, environment and validation. */
export interface ClientSettings {
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly timeout: number;
  readonly maxRetries: number;
  readonly maxRetryWait: number;
  readonly rateLimit: false | { limit: number; interval: number } | undefined;
  readonly rateLimitStore: RateLimitStore | undefined;
  /** The `fetch` option; undefined for the default, `globalThis.fetch` read at each attempt. */
  readonly fetch: typeof fetch | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly hooks: ClientHooks;
  readonly onWait: ((wait: WaitEvent) => void) | undefined;
  readonly logger: LevelledLogger | undefined;
  readonly onDrift: DriftHandler | undefined;
}

const DEFAULTS = { timeout: 30_000, maxRetries: 2, maxRetryWait: 60_000 };
const TIMEOUT_RANGE = { min: 1, max: MAX_TIMER_MS };
const WAIT_RANGE = { min: 0, max: MAX_TIMER_MS };
const MAX_RETRIES = 'The `maxRetries` option';

/** Applies defaults and environment fallbacks, and rejects values that cannot work. */
export function resolveSettings(options: HttpClientOptions = {}): ClientSettings {
  return readArguments('the client options', () => settingsFrom(options));
}

function settingsFrom(options: HttpClientOptions): ClientSettings {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('Client options must be an object, e.g. { apiKey, baseUrl }.');
  }
  const apiKey = options.apiKey ?? env('BIZMSG_API_KEY');
  if (apiKey !== undefined && typeof apiKey !== 'string') {
    // Described by its kind only: it may be a secret all the same.
    throw new InvalidArgumentError(`The \`apiKey\` option must be a string, got ${describeValue(apiKey)}.`);
  }
  if (apiKey === undefined || apiKey.trim() === '') {
    throw new InvalidArgumentError(
      'No API key: pass { apiKey } to the client or set the BIZMSG_API_KEY environment variable.',
    );
  }
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    // The key itself is never quoted: it may be a real secret with a stray character.
    throw new InvalidArgumentError(
      'The API key contains spaces or characters that cannot be sent in an HTTP header; copy it again from the dashboard.',
    );
  }
  return {
    apiKey,
    baseUrl: resolveBaseUrl(options.baseUrl),
    timeout: checkMs('The `timeout` option', options.timeout, DEFAULTS.timeout, TIMEOUT_RANGE),
    maxRetries: checkInteger(MAX_RETRIES, options.maxRetries, DEFAULTS.maxRetries, 0, 100),
    maxRetryWait: checkMs('The `maxRetryWait` option', options.maxRetryWait, DEFAULTS.maxRetryWait, WAIT_RANGE),
    rateLimit: checkRateLimit(options.rateLimit),
    rateLimitStore: checkRateLimitStore(options.rateLimitStore, options.rateLimit),
    fetch: checkFetch(options.fetch),
    headers: checkHeaders('headers', options.headers),
    hooks: checkHooks(options.hooks),
    onWait: checkFunction('onWait', options.onWait),
    logger: resolveLogger(options.logLevel, options.logger, env('BIZMSG_LOG')),
    onDrift: checkFunction('onDrift', options.onDrift),
  };
}

/** The `name` option: a function, or absent. */
function checkFunction<T>(name: string, value: T | undefined): T | undefined {
  if (value !== undefined && typeof value !== 'function')
    throw new InvalidArgumentError(`The \`${name}\` option must be a function, got ${showValue(value)}.`);
  return value;
}

/** Validates per-call options the same way as the client's; header names come back lower-cased. */
export function checkRequestOptions(options: RequestOptions | undefined): RequestOptions | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('Request options must be an object, e.g. { timeout: 5000 }.');
  }
  checkMs('The `timeout` option', options.timeout, 0, TIMEOUT_RANGE);
  checkInteger(MAX_RETRIES, options.maxRetries, 0, 0, 100);
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new InvalidArgumentError('The `signal` option must be an AbortSignal.');
  }
  return { ...options, headers: options.headers === undefined ? undefined : checkHeaders('headers', options.headers) };
}

function env(name: string): string | undefined {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return process?.env?.[name];
}

function resolveBaseUrl(option: unknown): string {
  const fromEnv = option === undefined || option === null;
  const value = fromEnv ? env('BIZMSG_BASE_URL') : option;
  if (value === undefined || value === '') {
    throw new InvalidArgumentError(
      'No base URL: pass { baseUrl } (ending with /api/v1) or set the BIZMSG_BASE_URL environment variable.',
    );
  }
  // The value is never quoted: a key pasted into the wrong option or variable would be in the message.
  const problem = baseUrlProblem(value);
  if (problem !== undefined) {
    const subject = fromEnv ? 'The BIZMSG_BASE_URL environment variable' : 'The `baseUrl` option';
    throw new InvalidArgumentError(
      `${subject} must be an http(s) URL ending with /api/v1 (e.g. https://api.example.com/api/v1), ` +
        `but ${problem} (its value is not shown: it may be a secret, such as an API key pasted in the wrong place).`,
    );
  }
  return new URL(value as string).href.replace(/\/+$/, '');
}

/** What is wrong with a base URL, in words that quote none of it; undefined when it is right. */
function baseUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `it is ${describeValue(value)}`;
  if (!URL.canParse(value))
    return /^[a-z][a-z\d+.-]*:\/\//i.test(value)
      ? `it is not a valid URL (${value.length} characters)`
      : `it has no scheme such as https:// (${value.length} characters)`;
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'its scheme is not http or https';
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '')
    return 'it contains credentials, a query or a fragment';
  // Section 9 of the spec: every endpoint lives under /api/v1, which ends the base URL.
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '') return 'it has no path';
  if (!path.endsWith('/api/v1'))
    return path.includes('/api/v1/') ? 'its path goes on past /api/v1' : 'its path does not end with /api/v1';
  return undefined;
}

function checkRateLimit(value: unknown): ClientSettings['rateLimit'] {
  if (value === undefined || value === false) return value;
  const { limit, interval } = (value ?? {}) as { limit?: unknown; interval?: unknown };
  if (
    typeof value !== 'object' ||
    !Number.isInteger(limit) ||
    (limit as number) < 1 ||
    typeof interval !== 'number' ||
    !Number.isFinite(interval) ||
    interval <= 0
  ) {
    throw new InvalidArgumentError(
      'The `rateLimit` option must be false or { limit, interval } with a positive integer limit and a positive interval in ms.',
    );
  }
  return { limit: limit as number, interval };
}

function checkRateLimitStore(value: unknown, rateLimit: unknown): RateLimitStore | undefined {
  if (value === undefined) return undefined;
  if (!isRateLimitStore(value)) {
    throw new InvalidArgumentError(
      'The `rateLimitStore` option must have acquire, release and pause methods, e.g. redisRateLimitStore(redis) from bizmsg/redis.',
    );
  }
  if (rateLimit === false) {
    throw new InvalidArgumentError(
      'The `rateLimitStore` option shares pacing, which `rateLimit: false` turns off: drop one of them.',
    );
  }
  return value;
}

function checkFetch(value: unknown): typeof fetch | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') {
    throw new InvalidArgumentError('The `fetch` option must be a function with the signature of fetch.');
  }
  return value as typeof fetch;
}

/** An HTTP token (RFC 9110), what a header name must be. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What fetch can send in a header value: no control characters but tab, nothing beyond Latin-1. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Headers the HTTP layer sets itself per connection or body; fetch implementations refuse them. */
const TRANSPORT_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'content-length',
  'expect',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Header names lower-cased (so a user's `X-API-Key` cannot sit beside ours and be merged
 * with it) after checking that fetch can send every header: an invalid one would otherwise
 * fail inside fetch and look like a network error.
 */
function checkHeaders(name: string, value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(`The \`${name}\` option must be an object of header names to string values.`);
  }
  const headers: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!HEADER_NAME.test(key)) {
      throw new InvalidArgumentError(`The \`${name}\` option: ${JSON.stringify(key)} is not a valid HTTP header name.`);
    }
    if (TRANSPORT_HEADERS.has(key.toLowerCase())) {
      throw new InvalidArgumentError(
        `The \`${name}\` option: "${key}" is set by the HTTP layer itself and cannot be given.`,
      );
    }
    if (typeof v !== 'string') {
      throw new InvalidArgumentError(`The \`${name}\` option: the value of "${key}" must be a string.`);
    }
    if (!HEADER_VALUE.test(v)) {
      // The value is not quoted: it may be a credential.
      throw new InvalidArgumentError(
        `The \`${name}\` option: the value of "${key}" contains a line break, a control character or a character beyond Latin-1, which HTTP headers cannot carry.`,
      );
    }
    headers[key.toLowerCase()] = v;
  }
  return headers;
}
