import ky, {
  HTTPError,
  TimeoutError as KyTimeoutError,
  type Hooks,
  type KyInstance,
  type Options,
  type ShouldRetryState,
} from 'ky';
import { CallReport } from './call-report.js';
import { AbortError, BizMsgError, HookError } from '../errors/classes.js';
import { apiError, connectionError, refusedError, timeoutError, type Processed } from '../errors/failures.js';
import type { LevelledLogger } from '../call/logger.js';
import type { RequestPacing } from '../rate-limit/pacing.js';
import type { Slot } from '../rate-limit/shared-budget.js';
import { redactText } from '../errors/redact.js';
import { mayHaveTakenEffect, networkErrorCode, retryDecision, type AttemptOutcome, type RetryLimits } from './retry.js';
import { findTracing, startCallSpan, tracingKnown } from './tracing.js';

/** A call ready for the wire: everything checked, the JSON body already serialised. */
export interface Exchange {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path below the base URL, ids encoded. */
  path: string;
  /** The path with `{id}` where ids stand, for span names. */
  route: string;
  /** The path as errors and logs show it: the API key removed, should an id hold it. */
  shownPath: string;
  searchParams: Record<string, string | number | boolean> | undefined;
  /** The JSON body, if any; serialised by `stringifyJson`, which names what JSON cannot hold. */
  json: unknown;
  stringifyJson: (value: unknown) => string;
  /** Per-call headers, lower-cased, the authentication already on top. */
  headers: Record<string, string> | undefined;
  signal: AbortSignal | undefined;
  timeout: number;
  maxRetries: number;
}

/** A successful answer: what the caller parses, and whether the request may have taken effect. */
export interface Reply {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
  url: string;
  processed: boolean;
}

/** What the transport needs of the client's settings. */
interface TransportSettings {
  apiKey: string;
  baseUrl: string;
  fetch: typeof fetch;
  maxRetryWait: number;
  /** Headers of every request: accept, the client's own, the authentication last. */
  headers: Record<string, string>;
  hooks: Hooks;
  logger: LevelledLogger | undefined;
}

/** Per-call state that ky's hooks and our retry decision share. */
interface CallState {
  readonly exchange: Exchange;
  readonly limits: RetryLimits;
  readonly report: CallReport | undefined;
  attempt: number;
  /** An earlier attempt may have taken effect. */
  earlier: boolean;
  nextDelay: number;
  /** The pacing slot taken and not yet given back. */
  slot: Slot | undefined;
  /** The response the last attempt returned to ky, its body text (read inside the timeout) and URL. */
  last: { response: Response; text: string; url: string } | undefined;
}

/** A fetch failure, told apart from what hooks throw; `code` is the socket error code, if any. */
class NetworkFailure extends Error {
  readonly code: string | undefined;

  constructor(cause: unknown) {
    super('fetch failed', { cause });
    this.code = networkErrorCode(cause);
  }
}

const STATE = 'bizmsg';
const RETRY_METHODS = ['get', 'post', 'put', 'delete'];
const HOOK_STAGES = ['beforeRequest', 'beforeRetry', 'afterResponse', 'beforeError'] as const;

/**
 * The HTTP layer on ky: one instance per client, its retry vetoed or timed by our policy
 * (`retryDecision`) so that nothing that may have taken effect is sent twice, every attempt
 * paced, every failure turned into a `BizMsgError`.
 */
export class Transport {
  readonly #ky: KyInstance;
  readonly #settings: TransportSettings;
  readonly #pacing: RequestPacing;
  /** Users' afterResponse and beforeError hooks read the body, so they get an unread copy. */
  readonly #copyForHooks: boolean;

  constructor(settings: TransportSettings, pacing: RequestPacing) {
    this.#settings = settings;
    this.#pacing = pacing;
    const user = settings.hooks;
    this.#copyForHooks = (user.afterResponse?.length ?? 0) + (user.beforeError?.length ?? 0) > 0;
    this.#ky = ky.create({
      prefixUrl: `${settings.baseUrl}/`,
      headers: settings.headers,
      throwHttpErrors: true,
      hooks: {
        beforeRequest: [
          (_request, options, { retryCount }) => this.#beforeAttempt(options.context, retryCount),
          ...(user.beforeRequest ?? []),
        ],
        beforeRetry: user.beforeRetry ?? [],
        afterResponse: user.afterResponse ?? [],
        beforeError: user.beforeError ?? [],
      },
    });
    void findTracing();
  }

  /** Sends an exchange, retrying where that is safe; resolves with the 2xx reply or rejects with a `BizMsgError`. */
  async send(exchange: Exchange): Promise<Reply> {
    if (!tracingKnown()) await findTracing();
    const span = startCallSpan({ method: exchange.method, url: this.#urlOf(exchange), route: exchange.route });
    const { logger } = this.#settings;
    const state: CallState = {
      exchange,
      limits: { maxRetries: exchange.maxRetries, maxRetryWait: this.#settings.maxRetryWait },
      report:
        logger === undefined && span === undefined
          ? undefined
          : new CallReport(logger, span, exchange.method, exchange.shownPath),
      attempt: 0,
      earlier: false,
      nextDelay: 0,
      slot: undefined,
      last: undefined,
    };
    return span === undefined ? this.#run(state) : span.run(() => this.#run(state));
  }

  async #run(state: CallState): Promise<Reply> {
    try {
      const response = await this.#ky(state.exchange.path, this.#options(state));
      const reply = await this.#reply(state, response);
      state.report?.finished(String(reply.status), reply.status, undefined);
      return reply;
    } catch (thrown) {
      const error = await this.#failure(state, thrown);
      state.report?.finished(
        describeFailure(state, thrown),
        thrown instanceof HTTPError ? thrown.response.status : undefined,
        error,
      );
      throw error;
    } finally {
      this.#release(state);
    }
  }

  #options(state: CallState): Options {
    const { exchange } = state;
    return {
      method: exchange.method,
      ...(exchange.json === undefined ? {} : { json: exchange.json, stringifyJson: exchange.stringifyJson }),
      ...(exchange.searchParams === undefined ? {} : { searchParams: exchange.searchParams }),
      ...(exchange.headers === undefined ? {} : { headers: exchange.headers }),
      ...(exchange.signal === undefined ? {} : { signal: exchange.signal }),
      timeout: exchange.timeout,
      retry: {
        limit: exchange.maxRetries,
        methods: RETRY_METHODS,
        shouldRetry: (retry) => this.#shouldRetry(state, retry),
        delay: () => state.nextDelay,
        backoffLimit: Number.POSITIVE_INFINITY,
      },
      fetch: (input, init) => this.#attempt(state, input as Request, init),
      context: { [STATE]: state },
    };
  }

  /** Our beforeRequest hook, first of all: waits for a pacing slot before each attempt. */
  async #beforeAttempt(context: Record<string, unknown>, retryCount: number): Promise<void> {
    const state = context[STATE] as CallState;
    const refusal = this.#pacing.refusal();
    if (refusal !== undefined) {
      throw refusedError(callOf(state.exchange), refusal, this.#settings.maxRetryWait, this.#settings.apiKey);
    }
    const slot = this.#pacing.acquire(state.exchange.signal);
    state.slot = slot instanceof Promise ? await slot : slot;
    state.attempt = retryCount + 1;
    state.report?.attemptStarted(state.attempt);
  }

  /** One attempt on the wire; the body is read here, so that ky's timeout covers it too. */
  async #attempt(state: CallState, input: Request, init: RequestInit | undefined): Promise<Response> {
    try {
      const response = await this.#settings.fetch(input, init);
      const snapshot = this.#pacing.observe(response.headers, response.status, state.slot);
      if (snapshot !== undefined) state.report?.rateLimit(snapshot);
      const text = await response.text();
      const returned = this.#copyForHooks ? new Response(emptyAsNull(text), response) : response;
      state.last = { response: returned, text, url: response.url === '' ? input.url : response.url };
      return returned;
    } catch (error) {
      if (state.exchange.signal?.aborted) throw state.exchange.signal.reason;
      throw new NetworkFailure(error);
    } finally {
      this.#release(state);
    }
  }

  #release(state: CallState): void {
    const { slot } = state;
    if (slot === undefined) return;
    state.slot = undefined;
    this.#pacing.release(slot);
  }

  /** ky asks before every retry: our policy decides, and times the wait. */
  #shouldRetry(state: CallState, { error, retryCount }: ShouldRetryState): boolean {
    if (state.exchange.signal?.aborted) return false;
    const outcome = outcomeOf(error);
    if (outcome === undefined) return false;
    const decision = retryDecision(state.exchange.method, outcome, retryCount - 1, state.limits, Date.now());
    if (!decision.retry) return false;
    state.earlier ||= mayHaveTakenEffect(state.exchange.method, outcome);
    state.nextDelay = decision.delay;
    state.report?.retrying(describeFailure(state, error), decision.delay);
    return true;
  }

  async #reply(state: CallState, response: Response): Promise<Reply> {
    const last = response === state.last?.response ? state.last : undefined;
    const text = last === undefined ? await response.text() : last.text;
    const now = mayHaveTakenEffect(state.exchange.method, {
      kind: 'response',
      status: response.status,
      headers: response.headers,
    });
    return {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      text,
      url: last?.url ?? response.url,
      processed: state.earlier || now,
    };
  }

  /** Whatever was thrown, as the `BizMsgError` that says what happened and what to do. */
  async #failure(state: CallState, thrown: unknown): Promise<BizMsgError> {
    const { exchange } = state;
    const call = callOf(exchange);
    if (BizMsgError.is(thrown)) return thrown;
    if (exchange.signal?.aborted) {
      return new AbortError(`${call.method} /${call.path} was aborted by its signal`, {
        cause: exchange.signal.reason,
      });
    }
    const outcome = outcomeOf(thrown);
    if (outcome === undefined) {
      const what = redactText(thrown instanceof Error ? thrown.message : String(thrown), this.#settings.apiKey);
      return new BizMsgError(`${call.method} /${call.path} failed unexpectedly: ${what}`, { cause: thrown });
    }
    const processed: Processed = { earlier: state.earlier, now: mayHaveTakenEffect(exchange.method, outcome) };
    if (outcome.kind === 'timeout') return timeoutError(call, exchange.timeout, processed);
    if (outcome.kind === 'network')
      return connectionError(call, outcome.code, processed, (thrown as NetworkFailure).cause);
    const { response } = thrown as HTTPError;
    const text = response === state.last?.response ? state.last.text : await response.text();
    return apiError(
      call,
      { status: response.status, statusText: response.statusText, headers: response.headers, text },
      processed,
      this.#settings.apiKey,
    );
  }

  #urlOf(exchange: Exchange): string {
    const url = `${this.#settings.baseUrl}/${exchange.shownPath}`;
    if (exchange.searchParams === undefined) return url;
    return `${url}?${new URLSearchParams(exchange.searchParams as Record<string, string>).toString()}`;
  }
}

/** The user's hooks, each wrapped so that what it throws becomes a `HookError` (secrets removed). */
export function wrapHooks(hooks: Hooks, apiKey: string): Hooks {
  const wrapped: Record<string, unknown[]> = {};
  for (const stage of HOOK_STAGES) {
    const list = hooks[stage] as Array<(...args: never[]) => unknown> | undefined;
    if (list === undefined) continue;
    wrapped[stage] = list.map((hook) => async (...args: never[]) => {
      try {
        return await hook(...args);
      } catch (error) {
        const what = redactText(error instanceof Error ? `${error.name}: ${error.message}` : String(error), apiKey);
        throw new HookError(stage, what, { cause: withoutSecret(error, what, apiKey) });
      }
    });
  }
  return wrapped;
}

/** What a hook threw, or a stand-in without the key when what it threw shows the key. */
function withoutSecret(thrown: unknown, redacted: string, apiKey: string): unknown {
  const shown = thrown instanceof Error ? `${thrown.message}\n${thrown.stack ?? ''}` : String(thrown);
  return shown.includes(apiKey) ? new Error(redacted) : thrown;
}

function outcomeOf(error: unknown): AttemptOutcome | undefined {
  if (error instanceof HTTPError)
    return { kind: 'response', status: error.response.status, headers: error.response.headers };
  if (error instanceof KyTimeoutError) return { kind: 'timeout' };
  if (error instanceof NetworkFailure) return { kind: 'network', code: error.code };
  return undefined;
}

/** The call an error is about, as its message shows it. */
function callOf(exchange: Exchange): { method: string; path: string; maxRetries: number } {
  return { method: exchange.method, path: exchange.shownPath, maxRetries: exchange.maxRetries };
}

/** The outcome of the last attempt in a few words, for log lines and span events. */
function describeFailure(state: CallState, error: unknown): string {
  const outcome = outcomeOf(error);
  if (outcome === undefined) {
    if (state.exchange.signal?.aborted) return 'aborted';
    return BizMsgError.is(error) ? error.name : 'error';
  }
  if (outcome.kind === 'response') return String(outcome.status);
  if (outcome.kind === 'timeout') return `timeout after ${state.exchange.timeout} ms`;
  return `network error${outcome.code === undefined ? '' : ` (${outcome.code})`}`;
}

/** A body for `new Response`, which refuses one for 204 and 304. */
function emptyAsNull(text: string): string | null {
  return text === '' ? null : text;
}
