// The attempt loop: sends a prepared call one attempt at a time (pace, send with a time limit,
// read the body, observe the rate-limit headers, decide, wait), on ky with its own retry off, and
// ends with a ServiceResponse or a BizMsgError. Nothing that may have taken effect is sent twice.
import type { KyInstance, Options } from 'ky';
import type { LevelledLogger } from '../../shared/logger.js';
import { BizMsgError } from '../../shared/errors.js';
import { raceAbort, sleep } from '../../shared/timers.js';
import {
  abortedError,
  apiError,
  connectionError,
  hostAndPort,
  redirectError,
  timeoutError,
  unexpectedError,
  type MayHaveBeenProcessed,
} from '../errors/failures.js';
import { causeWithoutSecret, redactText } from '../errors/redact.js';
import type { Pacing } from '../rate-limit/pacing.js';
import type { Slot } from '../rate-limit/shared-budget.js';
import { attemptMayHaveBeenProcessed, networkErrorCode, type AttemptOutcome } from '../wire/attempt.js';
import { labelOf, type PreparedCall, type ServiceResponse } from '../wire/call.js';
import { CallReport } from './call-report.js';
import type { HookContext, HookRunner } from './hooks.js';
import { retryDecision, type RetryLimits } from './retry.js';
import { findTracing, startCallSpan, tracingKnown } from './tracing.js';

/** What bizmsg is about to wait for, as the `onWait` client option is told. */
export interface WaitEvent {
  /**
   * `pacing`: a request held until the rate window has room, or until a 429's wait for every
   * request of the client ends (told once per wait of a request, again only if an answer moves its
   * end; a cold client's other requests held for its first answer, at most 2 s and mostly
   * milliseconds, are not told); `retry`: the wait before a failed attempt is made again.
   */
  readonly reason: 'pacing' | 'retry';
  /**
   * How long the wait lasts (ms): until the window's reset, the end of a 429's wait, or the
   * retry's delay. A request held for the window goes sooner when an answer shows that the next
   * window has begun (the service's window turned before this client's clock said so).
   */
  readonly ms: number;
  /** The call's method: `GET`, `POST`, `PUT` or `DELETE`. */
  readonly method: string;
  /** The call's path below the base URL, as errors show it: `/contacts/42`. */
  readonly path: string;
  /** The attempt that waits to be sent, from 1. */
  readonly attempt: number;
  /** For a retry, the status of the answer retried (429, 503); absent after a time-out or a connection failure. */
  readonly status?: number;
}

/** What the transport needs of the client's settings. */
export interface TransportSettings {
  apiKey: string;
  baseUrl: string;
  /** The `fetch` option; undefined for the default, `globalThis.fetch` read at each attempt. */
  fetch: typeof fetch | undefined;
  maxRetryWait: number;
  /** The client's `timeout`, its ky instance's: a call passes its own only when it differs. */
  timeout: number;
  /** Headers of every request: accept, the client's own, the authentication last. */
  headers: Record<string, string>;
  hooks: HookRunner;
  onWait: ((wait: WaitEvent) => void) | undefined;
  logger: LevelledLogger | undefined;
}

/** How one attempt ended: an answer read whole, or a failure on the way. */
type Attempted =
  | { kind: 'response'; received: Received }
  | { kind: 'timeout' }
  | { kind: 'network'; code: string | undefined; cause: unknown }
  | { kind: 'thrown'; error: unknown };

/** An attempt that ended on the wire (it did not throw). */
type Ended = Exclude<Attempted, { kind: 'thrown' }>;

/** An answer with its body read inside the attempt's time limit. */
interface Received {
  readonly response: Response;
  readonly text: string;
  readonly url: string;
}

/** A call under way: the hook context of its current attempt, and what earlier attempts did. */
interface CallState extends HookContext {
  readonly call: PreparedCall;
  readonly report: CallReport | undefined;
  attempt: number;
  /** An earlier attempt may have been processed. */
  earlierMayHaveBeenProcessed: boolean;
}

/** What the wire threw (fetch, or reading an answer's body), told apart from what a hook or ky throws. */
class WireFailure extends Error {
  constructor(cause: unknown) {
    super('the connection failed', { cause });
  }
}

/** What a body read that ran out of the attempt's time rejects with. */
class BodyTimeout extends Error {}

/** The key of a call's state in ky's per-request `context`, where the hooks find it. */
const STATE = 'bizmsg';

/** ky, loaded once per process at the first request (evaluating it loads all of fetch on Node). */
let loadingKy: Promise<typeof import('./ky-parts.js')> | undefined;

/** ky's time-out error, once ky is loaded: an attempt that got no answer within its time limit. */
let KyTimeoutError: (new (...args: never[]) => Error) | undefined;

/**
 * The clients' HTTP layer: one instance per client. Every attempt takes a pacing slot first, goes
 * out through ky (its retry off: this loop decides) with the call's time limit over the answer and
 * its body, and is retried only where `retryDecision` says nothing can be sent twice; redirects
 * are never followed, so no header reaches another origin.
 */
export class Transport {
  #ky: KyInstance | undefined;
  readonly #settings: TransportSettings;
  readonly #pacing: Pacing;
  /** How each attempt goes on the wire: the `fetch` option, or `globalThis.fetch` read at each attempt (so that msw and other interceptors installed later apply). */
  readonly #fetch: typeof fetch;
  /** The host and port of the base URL, as a connection error names them (the key removed, should it be in there). */
  readonly #target: string;
  /** Whether ky runs hooks of the user's, which read the call from ky's `context`. */
  readonly #hooked: boolean;

  constructor(settings: TransportSettings, pacing: Pacing) {
    this.#settings = settings;
    this.#pacing = pacing;
    const wire = settings.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#fetch = (input, init) => wire(input, init).catch((error: unknown) => Promise.reject(new WireFailure(error)));
    this.#target = redactText(hostAndPort(settings.baseUrl), settings.apiKey);
    this.#hooked = settings.hooks.has('beforeRequest') || settings.hooks.has('afterResponse');
    void findTracing();
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

  async #create(): Promise<KyInstance> {
    const { ky, TimeoutError } = await (loadingKy ??= import('./ky-parts.js'));
    KyTimeoutError = TimeoutError;
    this.#ky ??= ky.create({
      prefixUrl: `${this.#settings.baseUrl}/`,
      headers: this.#settings.headers,
      fetch: this.#fetch,
      // This loop owns the attempts: one request per ky call, answered whatever its status, within
      // the call's time limit (ky's until the answer comes; what is left of it for the body, here).
      retry: 0,
      throwHttpErrors: false,
      timeout: this.#settings.timeout,
      // Never followed: the answer is the 3xx itself, and nothing goes to the Location.
      redirect: 'manual',
      hooks: this.#settings.hooks.forKy((options) => options.context?.[STATE] as CallState),
    });
    return this.#ky;
  }

  #start(ky: KyInstance, call: PreparedCall): Promise<ServiceResponse> {
    const span = startCallSpan(call.method, call.route, () => this.#urlOf(call));
    const { logger } = this.#settings;
    const state: CallState = {
      call,
      method: call.method,
      path: `/${call.shownPath}`,
      attempt: 0,
      earlierMayHaveBeenProcessed: false,
      report:
        logger === undefined && span === undefined
          ? undefined
          : new CallReport(logger, span, call.method, call.shownPath),
    };
    return span === undefined ? this.#run(ky, state) : span.run(() => this.#run(ky, state));
  }

  /** The loop: an attempt, then the answer, or a decision to retry after a wait, or the call's error. */
  async #run(ky: KyInstance, state: CallState): Promise<ServiceResponse> {
    const { call, report } = state;
    const limits: RetryLimits = { maxRetries: call.maxRetries, maxRetryWait: this.#settings.maxRetryWait };
    let outcome: AttemptOutcome | undefined;
    try {
      for (;;) {
        outcome = undefined;
        const attempted = await this.#attempt(ky, state);
        if (attempted.kind === 'thrown') throw attempted.error;
        outcome = outcomeOf(attempted);
        if (attempted.kind === 'response' && attempted.received.response.ok) {
          const received = this.#serviceResponse(state, attempted.received);
          report?.finished(String(received.status), received.status, undefined);
          return received;
        }
        const decision = retryDecision(call.method, outcome, state.attempt - 1, limits, Date.now());
        if (!decision.retry) throw this.#failure(state, attempted, outcome);
        await this.#beforeRetry(state, attempted, outcome, decision.delay);
      }
    } catch (thrown) {
      const error = await this.#settings.hooks.beforeError(this.#asBizMsgError(state, thrown), contextOf(state));
      const status = outcome?.kind === 'response' ? outcome.status : undefined;
      report?.finished(describeEnd(state, outcome, error), status, error);
      throw error;
    }
  }

  /** One attempt: a pacing slot, then the request within the call's time limit, its body read in what is left of it. */
  async #attempt(ky: KyInstance, state: CallState): Promise<Attempted> {
    const { call } = state;
    const slot = await this.#pace(state);
    state.attempt += 1;
    state.report?.attemptStarted(state.attempt);
    const started = Date.now();
    try {
      // Raced with the signal too: a `fetch` option that ignores it (a stub, a test double) still stops.
      const response = await raceAbort(ky(call.path, this.#options(state)), call.signal);
      const snapshot = this.#pacing.observe(response.headers, response.status, slot);
      if (snapshot !== undefined) state.report?.rateLimit(snapshot);
      const text = await raceAbort(bodyOf(response, call.timeout - (Date.now() - started)), call.signal);
      return { kind: 'response', received: { response, text, url: response.url } };
    } catch (error) {
      if (call.signal?.aborted === true)
        return { kind: 'thrown', error: abortedError(labelOf(call), call.signal.reason) };
      if (error instanceof BodyTimeout || (KyTimeoutError !== undefined && error instanceof KyTimeoutError))
        return { kind: 'timeout' };
      // A body cut short or that cannot be decoded is the connection failing under the answer.
      if (error instanceof WireFailure)
        return { kind: 'network', code: networkErrorCode(error.cause), cause: error.cause };
      return { kind: 'thrown', error };
    } finally {
      this.#pacing.release(slot);
    }
  }

  /** A pacing slot: at once, or after a wait the `onWait` option hears of first. */
  #pace(state: CallState): Slot | Promise<Slot> {
    const { call } = state;
    const refused = this.#pacing.refusal(labelOf(call), this.#settings.maxRetryWait, this.#settings.apiKey);
    if (refused !== undefined) throw refused;
    return this.#pacing.acquire(call.signal, (ms) =>
      this.#notifyWait({ reason: 'pacing', ms, method: call.method, path: state.path, attempt: state.attempt + 1 }),
    );
  }

  /** ky's options for one attempt; only what the call sets, as ky copies its options once per key it is given. */
  #options(state: CallState): Options {
    const { call } = state;
    const options: Options = { method: call.method };
    if (this.#hooked) options.context = { [STATE]: state };
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

  /** Before a retry: the log line and span event, the `onWait` option, the user's `beforeRetry` hooks, then the wait. */
  async #beforeRetry(state: CallState, attempted: Ended, outcome: AttemptOutcome, delay: number): Promise<void> {
    const { call } = state;
    state.report?.retrying(describeOutcome(state, outcome), delay);
    const status = outcome.kind === 'response' ? outcome.status : undefined;
    this.#notifyWait({
      reason: 'retry',
      ms: delay,
      method: call.method,
      path: state.path,
      attempt: state.attempt + 1,
      ...(status === undefined ? {} : { status }),
    });
    if (this.#settings.hooks.has('beforeRetry')) {
      const error = this.#failure(state, attempted, outcome);
      await this.#settings.hooks.beforeRetry({ ...contextOf(state), error, delayMs: delay });
    }
    state.earlierMayHaveBeenProcessed ||= attemptMayHaveBeenProcessed(call.method, outcome);
    await sleep(delay, call.signal);
  }

  /** Tells the `onWait` option; what it throws is logged, never the call's failure. */
  #notifyWait(wait: WaitEvent): void {
    const { onWait, logger } = this.#settings;
    if (onWait === undefined) return;
    try {
      onWait(wait);
    } catch (error) {
      logger?.log('error', `bizmsg: onWait threw: ${redactText(String(error), this.#settings.apiKey)}`);
    }
  }

  #serviceResponse(state: CallState, { response, text, url }: Received): ServiceResponse {
    const { status, headers } = response;
    const now = attemptMayHaveBeenProcessed(state.call.method, { kind: 'response', status, headers });
    return {
      status,
      statusText: response.statusText,
      headers,
      text,
      url: url === '' ? this.#urlOf(state.call) : url,
      mayHaveBeenProcessed: state.earlierMayHaveBeenProcessed || now,
    };
  }

  /** The error the call fails with after `attempted`, which ended with `outcome`. */
  #failure(state: CallState, attempted: Ended, outcome: AttemptOutcome): BizMsgError {
    const { call } = state;
    const label = labelOf(call);
    const { apiKey } = this.#settings;
    const mayHaveBeenProcessed: MayHaveBeenProcessed = {
      earlier: state.earlierMayHaveBeenProcessed,
      now: attemptMayHaveBeenProcessed(call.method, outcome),
    };
    if (attempted.kind === 'timeout') return timeoutError(label, call.timeout, mayHaveBeenProcessed);
    if (attempted.kind === 'network') {
      const cause = causeWithoutSecret(attempted.cause, apiKey);
      return connectionError(label, attempted.code, mayHaveBeenProcessed, cause, this.#target);
    }
    const { response, text } = attempted.received;
    const answer = { status: response.status, statusText: response.statusText, headers: response.headers, text };
    if (isRedirect(response)) return redirectError(label, answer, this.#settings.baseUrl, mayHaveBeenProcessed, apiKey);
    return apiError(label, answer, mayHaveBeenProcessed, apiKey);
  }

  /** Whatever ended the call, as a `BizMsgError`. */
  #asBizMsgError(state: CallState, thrown: unknown): BizMsgError {
    if (BizMsgError.is(thrown)) return thrown;
    const label = labelOf(state.call);
    if (state.call.signal?.aborted === true) return abortedError(label, state.call.signal.reason);
    return unexpectedError(label, thrown, this.#settings.apiKey);
  }

  #urlOf(call: PreparedCall): string {
    const url = `${this.#settings.baseUrl}/${call.shownPath}`;
    if (call.searchParams === undefined) return url;
    return `${url}?${new URLSearchParams(call.searchParams as Record<string, string>).toString()}`;
  }
}

/**
 * The body of `response` as text, read within `ms` (what is left of the attempt's time limit): a
 * body that stalls past it is cancelled, and the read rejects with a BodyTimeout; a read that fails is
 * a WireFailure.
 */
function bodyOf(response: Response, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => {
        response.body?.cancel().catch(() => undefined);
        reject(new BodyTimeout('the body came too slowly'));
      },
      Math.max(0, ms),
    );
    response.text().then(
      (text) => {
        clearTimeout(timer);
        resolve(text);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new WireFailure(error));
      },
    );
  });
}

/** How an attempt that did not throw ended. */
function outcomeOf(attempted: Ended): AttemptOutcome {
  if (attempted.kind === 'response') {
    const { response } = attempted.received;
    return { kind: 'response', status: response.status, headers: response.headers };
  }
  return attempted.kind === 'timeout' ? { kind: 'timeout' } : { kind: 'network', code: attempted.code };
}

/** A 3xx answer (Node gives it as it is), or a browser's opaque stand-in for one. */
function isRedirect(response: Response): boolean {
  return (response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect';
}

function contextOf(state: CallState): HookContext {
  return { method: state.method, path: state.path, attempt: state.attempt };
}

/** The outcome of an attempt in a few words, for log lines and span events. */
function describeOutcome(state: CallState, outcome: AttemptOutcome): string {
  if (outcome.kind === 'response') return String(outcome.status);
  if (outcome.kind === 'timeout') return `timeout after ${state.call.timeout} ms`;
  return `network error${outcome.code === undefined ? '' : ` (${outcome.code})`}`;
}

/** How the call ended, in a few words, for its last log line and its span. */
function describeEnd(state: CallState, outcome: AttemptOutcome | undefined, error: BizMsgError): string {
  if (outcome !== undefined) return describeOutcome(state, outcome);
  return state.call.signal?.aborted === true ? 'aborted' : error.name;
}
