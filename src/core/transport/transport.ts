// The HTTP layer on ky: sends a prepared call, one attempt at a time, paced, retried only where
// that cannot send anything twice, and ends with a ServiceResponse or a BizMsgError.
import type { HTTPError, Hooks, KyInstance, Options, ShouldRetryState } from 'ky';
import { BizMsgError } from '../../shared/errors.js';
import { labelOf, type PreparedCall, type ServiceResponse } from '../call/call.js';
import type { LevelledLogger } from '../call/logger.js';
import {
  abortedError,
  apiError,
  connectionError,
  hostAndPort,
  timeoutError,
  unexpectedError,
  type MayHaveBeenProcessed,
} from '../errors/failures.js';
import type { Pacing } from '../rate-limit/pacing.js';
import { causeWithoutSecret, redactText } from '../errors/redact.js';
import { longWaitError } from '../rate-limit/long-wait.js';
import type { Slot } from '../rate-limit/shared-budget.js';
import { CallReport } from './call-report.js';
import { loadKy, type KyParts } from './ky.js';
import {
  attemptMayHaveBeenProcessed,
  networkErrorCode,
  retryDecision,
  type AttemptOutcome,
  type RetryLimits,
} from './retry.js';
import { findTracing, startCallSpan, tracingKnown } from './tracing.js';

/** What the transport needs of the client's settings. */
interface TransportSettings {
  apiKey: string;
  baseUrl: string;
  /** The `fetch` option; undefined for the default, `globalThis.fetch` read at each attempt. */
  fetch: typeof fetch | undefined;
  maxRetryWait: number;
  /** The client's `timeout`, ky's default: a call passes its own only when it differs. */
  timeout: number;
  /** Headers of every request: accept, the client's own, the authentication last. */
  headers: Record<string, string>;
  hooks: Hooks;
  logger: LevelledLogger | undefined;
}

/** What the transport tracks of one call across its attempts; ky's hooks and our retry decision share it. */
interface CallProgress {
  readonly call: PreparedCall;
  readonly limits: RetryLimits;
  readonly report: CallReport | undefined;
  attempt: number;
  /** An earlier attempt may have been processed. */
  earlierMayHaveBeenProcessed: boolean;
  nextDelay: number;
  /** The pacing slot taken and not yet given back. */
  slot: Slot | undefined;
  /** What the last attempt returned to ky. */
  last: AttemptResponse | undefined;
}

/** A response an attempt returned to ky, its body text (read inside the timeout) and URL. */
interface AttemptResponse {
  readonly response: Response;
  readonly text: string;
  readonly url: string;
}

/** A fetch failure, told apart from what hooks throw; `code` is the socket error code, if any. */
class NetworkFailure extends Error {
  readonly code: string | undefined;

  constructor(cause: unknown) {
    super('fetch failed', { cause });
    this.code = networkErrorCode(cause);
  }
}

/** The key of our progress in ky's per-request `context`. */
const PROGRESS = 'bizmsg';
const RETRY_METHODS = ['get', 'post', 'put', 'delete'];

/**
 * The HTTP layer on ky: one instance per client, its retry vetoed or timed by our policy
 * (`retryDecision`) so that nothing that may have taken effect is sent twice, every attempt
 * paced, every failure turned into a `BizMsgError`.
 */
export class Transport {
  /** The client's ky instance and ky's error classes, made at its first request (ky itself is loaded then). */
  #ky: KyInstance | undefined;
  #kyErrors: Pick<KyParts, 'HTTPError' | 'TimeoutError'> | undefined;
  readonly #settings: TransportSettings;
  readonly #pacing: Pacing;
  /** Users' afterResponse and beforeError hooks read the body, so they get an unread copy. */
  readonly #copyForHooks: boolean;
  /** How each attempt goes on the wire: the `fetch` option, or `globalThis.fetch` read at each attempt (so that msw and other interceptors installed later apply). */
  readonly #fetch: typeof fetch;
  /** The host and port of the base URL, as a connection error names them (the key removed, should it be in there). */
  readonly #target: string;

  constructor(settings: TransportSettings, pacing: Pacing) {
    this.#settings = settings;
    this.#pacing = pacing;
    const user = settings.hooks;
    this.#copyForHooks = (user.afterResponse?.length ?? 0) + (user.beforeError?.length ?? 0) > 0;
    this.#fetch = settings.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#target = redactText(hostAndPort(settings.baseUrl), settings.apiKey);
    void findTracing();
  }

  /** The client's ky instance, loading ky at the first request. */
  async #create(): Promise<KyInstance> {
    const { ky, HTTPError, TimeoutError } = await loadKy();
    const user = this.#settings.hooks;
    this.#kyErrors = { HTTPError, TimeoutError };
    this.#ky ??= ky.create({
      prefixUrl: `${this.#settings.baseUrl}/`,
      headers: this.#settings.headers,
      timeout: this.#settings.timeout,
      throwHttpErrors: true,
      hooks: {
        // The first attempt is paced before ky is called (#run), each retry here, after ky's wait
        // and before the user's hooks: outside ky's timeout either way, and without a
        // beforeRequest hook of ours, which ky would await before every attempt.
        beforeRetry: [
          ({ options, retryCount }) => this.#beforeAttempt(options.context[PROGRESS] as CallProgress, retryCount),
          ...(user.beforeRetry ?? []),
        ],
        beforeRequest: user.beforeRequest ?? [],
        afterResponse: user.afterResponse ?? [],
        beforeError: user.beforeError ?? [],
      },
    });
    return this.#ky;
  }

  /** Sends a call, retrying where that is safe; resolves with the 2xx ServiceResponse or rejects with a `BizMsgError`. */
  send(call: PreparedCall): Promise<ServiceResponse> {
    const ky = this.#ky;
    return ky !== undefined && tracingKnown() ? this.#start(ky, call) : this.#firstSend(call);
  }

  /** The first call of a client: ky is loaded, and it is known whether tracing is there. */
  async #firstSend(call: PreparedCall): Promise<ServiceResponse> {
    if (!tracingKnown()) await findTracing();
    return await this.#start(this.#ky ?? (await this.#create()), call);
  }

  #start(ky: KyInstance, call: PreparedCall): Promise<ServiceResponse> {
    const span = startCallSpan(call.method, call.route, () => this.#urlOf(call));
    const { logger } = this.#settings;
    const progress: CallProgress = {
      call,
      limits: { maxRetries: call.maxRetries, maxRetryWait: this.#settings.maxRetryWait },
      report:
        logger === undefined && span === undefined
          ? undefined
          : new CallReport(logger, span, call.method, call.shownPath),
      attempt: 0,
      earlierMayHaveBeenProcessed: false,
      nextDelay: 0,
      slot: undefined,
      last: undefined,
    };
    return span === undefined ? this.#run(ky, progress) : span.run(() => this.#run(ky, progress));
  }

  async #run(ky: KyInstance, progress: CallProgress): Promise<ServiceResponse> {
    try {
      const pacing = this.#beforeAttempt(progress, 0);
      if (pacing !== undefined) await pacing;
      const response = await ky(progress.call.path, this.#options(progress));
      const received =
        response === progress.last?.response
          ? this.#toServiceResponse(progress, progress.last)
          : await this.#readResponse(progress, response);
      progress.report?.finished(String(received.status), received.status, undefined);
      return received;
    } catch (thrown) {
      const outcome = this.#outcomeOf(thrown);
      const error = await this.#failure(progress, thrown, outcome);
      progress.report?.finished(
        describeFailure(progress, thrown, outcome),
        outcome?.kind === 'response' ? outcome.status : undefined,
        error,
      );
      throw error;
    } finally {
      this.#release(progress);
    }
  }

  /** ky's options for one call; only what the call sets, as ky copies its options once per key it is given. */
  #options(progress: CallProgress): Options {
    const { call } = progress;
    const options: Options = {
      method: call.method,
      retry: {
        limit: call.maxRetries,
        methods: RETRY_METHODS,
        shouldRetry: (retry) => this.#shouldRetry(progress, retry),
        delay: () => progress.nextDelay,
        backoffLimit: Number.POSITIVE_INFINITY,
      },
      fetch: (input, init) => this.#attempt(progress, input as Request, init),
      context: { [PROGRESS]: progress },
    };
    if (call.json !== undefined) {
      options.json = call.json;
      options.stringifyJson = call.stringifyJson;
    }
    if (call.timeout !== this.#settings.timeout) options.timeout = call.timeout;
    if (call.searchParams !== undefined) options.searchParams = call.searchParams;
    if (call.headers !== undefined) options.headers = call.headers;
    if (call.signal !== undefined) options.signal = call.signal;
    return options;
  }

  /**
   * Before each attempt: a pacing slot, at once (undefined is returned) or once the promise
   * resolves; during a long wait a 429 asked for, the call fails at once instead.
   */
  #beforeAttempt(progress: CallProgress, retryCount: number): Promise<void> | undefined {
    const longWait = this.#pacing.longWait();
    if (longWait !== undefined) {
      throw longWaitError(labelOf(progress.call), longWait, this.#settings.maxRetryWait, this.#settings.apiKey);
    }
    const slot = this.#pacing.acquire(progress.call.signal);
    if (slot instanceof Promise) return slot.then((taken) => this.#attemptStarts(progress, taken, retryCount));
    this.#attemptStarts(progress, slot, retryCount);
    return undefined;
  }

  #attemptStarts(progress: CallProgress, slot: Slot, retryCount: number): void {
    progress.slot = slot;
    progress.attempt = retryCount + 1;
    progress.report?.attemptStarted(progress.attempt);
  }

  /** One attempt on the wire; the body is read here, so that ky's timeout covers it too. */
  async #attempt(progress: CallProgress, input: Request, init: RequestInit | undefined): Promise<Response> {
    try {
      const response = await this.#fetch(input, init);
      const snapshot = this.#pacing.observe(response.headers, response.status, progress.slot);
      if (snapshot !== undefined) progress.report?.rateLimit(snapshot);
      const text = await response.text();
      const returned = this.#copyForHooks ? new Response(emptyAsNull(text), response) : response;
      progress.last = { response: returned, text, url: response.url === '' ? input.url : response.url };
      return returned;
    } catch (error) {
      if (progress.call.signal?.aborted) throw progress.call.signal.reason;
      throw new NetworkFailure(error);
    } finally {
      this.#release(progress);
    }
  }

  #release(progress: CallProgress): void {
    const { slot } = progress;
    if (slot === undefined) return;
    progress.slot = undefined;
    this.#pacing.release(slot);
  }

  /** ky asks before every retry: our policy decides, and times the wait. */
  #shouldRetry(progress: CallProgress, { error, retryCount }: ShouldRetryState): boolean {
    const { call } = progress;
    if (call.signal?.aborted) return false;
    const outcome = this.#outcomeOf(error);
    if (outcome === undefined) return false;
    const decision = retryDecision(call.method, outcome, retryCount - 1, progress.limits, Date.now());
    if (!decision.retry) return false;
    progress.earlierMayHaveBeenProcessed ||= attemptMayHaveBeenProcessed(call.method, outcome);
    progress.nextDelay = decision.delay;
    progress.report?.retrying(describeFailure(progress, error, outcome), decision.delay);
    return true;
  }

  /** The ServiceResponse of a response ky resolved with that no attempt of ours read (a user's hook made it). */
  async #readResponse(progress: CallProgress, response: Response): Promise<ServiceResponse> {
    return this.#toServiceResponse(progress, { response, text: await response.text(), url: response.url });
  }

  #toServiceResponse(progress: CallProgress, { response, text, url }: AttemptResponse): ServiceResponse {
    const { status, headers } = response;
    const now = attemptMayHaveBeenProcessed(progress.call.method, { kind: 'response', status, headers });
    return {
      status,
      statusText: response.statusText,
      headers,
      text,
      url,
      mayHaveBeenProcessed: progress.earlierMayHaveBeenProcessed || now,
    };
  }

  /** Whatever was thrown, as the `BizMsgError` that says what happened and what to do. */
  async #failure(progress: CallProgress, thrown: unknown, outcome: AttemptOutcome | undefined): Promise<BizMsgError> {
    if (BizMsgError.is(thrown)) return thrown;
    const { call } = progress;
    const label = labelOf(call);
    if (call.signal?.aborted) return abortedError(label, call.signal.reason);
    if (outcome === undefined) return unexpectedError(label, thrown, this.#settings.apiKey);
    const mayHaveBeenProcessed: MayHaveBeenProcessed = {
      earlier: progress.earlierMayHaveBeenProcessed,
      now: attemptMayHaveBeenProcessed(call.method, outcome),
    };
    if (outcome.kind === 'timeout') return timeoutError(label, call.timeout, mayHaveBeenProcessed);
    if (outcome.kind === 'network')
      return connectionError(
        label,
        outcome.code,
        mayHaveBeenProcessed,
        causeWithoutSecret((thrown as NetworkFailure).cause, this.#settings.apiKey),
        this.#target,
      );
    const { response } = thrown as HTTPError;
    const text = response === progress.last?.response ? progress.last.text : await response.text();
    return apiError(
      label,
      { status: response.status, statusText: response.statusText, headers: response.headers, text },
      mayHaveBeenProcessed,
      this.#settings.apiKey,
    );
  }

  /** How an attempt ended, from what ky threw; undefined for anything else (a hook, an abort). */
  #outcomeOf(error: unknown): AttemptOutcome | undefined {
    const errors = this.#kyErrors;
    if (errors !== undefined && error instanceof errors.HTTPError)
      return { kind: 'response', status: error.response.status, headers: error.response.headers };
    if (errors !== undefined && error instanceof errors.TimeoutError) return { kind: 'timeout' };
    if (error instanceof NetworkFailure) return { kind: 'network', code: error.code };
    return undefined;
  }

  #urlOf(call: PreparedCall): string {
    const url = `${this.#settings.baseUrl}/${call.shownPath}`;
    if (call.searchParams === undefined) return url;
    return `${url}?${new URLSearchParams(call.searchParams as Record<string, string>).toString()}`;
  }
}

/** The outcome of the last attempt in a few words, for log lines and span events. */
function describeFailure(progress: CallProgress, error: unknown, outcome: AttemptOutcome | undefined): string {
  if (outcome === undefined) {
    if (progress.call.signal?.aborted) return 'aborted';
    return BizMsgError.is(error) ? error.name : 'error';
  }
  if (outcome.kind === 'response') return String(outcome.status);
  if (outcome.kind === 'timeout') return `timeout after ${progress.call.timeout} ms`;
  return `network error${outcome.code === undefined ? '' : ` (${outcome.code})`}`;
}

/** A body for `new Response`, which refuses one for 204 and 304. */
function emptyAsNull(text: string): string | null {
  return text === '' ? null : text;
}
