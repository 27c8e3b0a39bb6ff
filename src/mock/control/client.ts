// connectMock: a MockControl that steers and inspects a mock, over HTTP (a bizmsg-mock in another
// process, on another machine) or in process, with the same methods either way.
import type { WebhookEventKind } from '../../schemas/webhook-endpoint.js';
import { BizMsgError, InvalidArgumentError } from '../../shared/errors.js';
import { showWithheld } from '../../shared/describe.js';
import { hasMethods } from '../../shared/guards.js';
import type { Scope } from '../options.js';
import type { FaultSpec, InjectedFault } from '../rules/faults.js';
import type { MockService, MockSnapshot } from '../service.js';
import type { JournalFilter } from '../state/journal.js';
import { pageById, type IdPage } from '../state/page.js';
import type {
  DeliveryAttempt,
  JournalEntry,
  StoredConversation,
  StoredMessage,
  StoredWebhookEndpoint,
} from '../state/records.js';
import { ControlArgumentError } from './errors.js';
import { checkArguments, ControlErrorOutput, DeliveriesQuery } from './schemas.js';
import { CONTROL_PREFIX } from './routes.js';

/** What `health()` answers. */
export interface MockHealth {
  ok: true;
  variant: 1 | 2;
  baseUrl: string;
  /** The virtual clock, ISO 8601. */
  now: string;
}

/**
 * Steers and inspects a mock: the same methods whether it runs in this process or is a
 * `bizmsg-mock` reached over HTTP, so that one test reads alike against either. Every method
 * returns a promise; a refused call (a bad argument, an unknown id) rejects with an
 * `InvalidArgumentError` that names the field, and changes nothing.
 */
export interface MockControl {
  /** Whether the mock runs: its variant, base URL and virtual time. */
  health(): Promise<MockHealth>;
  /** Everything the mock holds, as JSON; `deliveries`: only that many of the newest attempts. */
  state(options?: { deliveries?: number }): Promise<MockSnapshot>;
  /** The request journal, oldest first, API keys redacted. */
  requests(filter?: JournalFilter): Promise<JournalEntry[]>;
  /** The webhook delivery attempts kept, oldest first: all, or the page `page` picks by id. */
  deliveries(page?: IdPage): Promise<DeliveryAttempt[]>;
  /** Delivers the event of attempt `id` again, now; resolves with the new attempt. */
  redeliver(id: number): Promise<DeliveryAttempt>;
  /** The virtual clock. */
  readonly clock: {
    /** Moves it forward by `ms`; resolves with the new time once the work that fell due has settled. */
    advance(ms: number): Promise<{ now: string }>;
  };
  /** Injects a fault (status, network error or delay) into matching requests. */
  inject(fault: FaultSpec): Promise<void>;
  /** The injected faults still in force. */
  faults(): Promise<InjectedFault[]>;
  /** Removes every injected fault. */
  clearFaults(): Promise<void>;
  /** Creates an API key (scopes left out: all of them). */
  createKey(options?: { scopes?: readonly Scope[]; plan?: string }): Promise<string>;
  /** Revokes an API key. */
  revokeKey(key: string): Promise<void>;
  /** A customer writes: an inbound message, with its events. */
  receiveMessage(message: { from: string; body: string }): Promise<StoredMessage>;
  /** Changes a conversation (status, assignee). */
  updateConversation(
    id: number,
    change: { status?: StoredConversation['status']; assigned_to?: string | null },
  ): Promise<StoredConversation>;
  /**
   * Decides an outbound message's fate: `delivered`, `read` or `failed` (never back), with each
   * step's events (`message.failed` carries `error`); resolves with the message.
   */
  setMessageStatus(
    id: string,
    change: { status: 'delivered' | 'read' | 'failed'; error?: { code: string; message: string } },
  ): Promise<StoredMessage>;
  /** Registers a webhook endpoint (also in Variant 1). */
  registerWebhook(endpoint: {
    url: string;
    events: readonly WebhookEventKind[];
    secret: string;
  }): Promise<StoredWebhookEndpoint>;
  /** Removes a webhook endpoint. */
  removeWebhook(id: number): Promise<void>;
  /** Makes a disabled webhook endpoint active again. */
  enableWebhook(id: number): Promise<StoredWebhookEndpoint>;
  /** Emits one event of a kind through the normal delivery path; resolves with the first attempts. */
  emit(
    event: WebhookEventKind,
    options?: { data?: Record<string, unknown>; endpointId?: number },
  ): Promise<DeliveryAttempt[]>;
  /** Back to the seed. */
  reset(): Promise<void>;
}

/** Options of `connectMock`. */
export interface ConnectMockOptions {
  /** The control token, when the mock requires one (bound to a non-loopback address, or started with one). */
  controlToken?: string;
  /** A fetch implementation (default: the global one, read at call time). */
  fetch?: typeof fetch;
}

/**
 * A `MockControl` for a running mock: `target` is the URL `bizmsg-mock` printed (its base URL
 * ending in `/api/v1`, or its origin), or a mock in this process (`createMockServer()`,
 * `startMockHttpServer().mock`).
 *
 * @example
 * ```ts
 * const control = connectMock('http://127.0.0.1:4010/api/v1');
 * await control.receiveMessage({ from: '+4915112345678', body: 'Hi' });
 * await control.clock.advance(60_000);
 * const sent = await control.requests({ method: 'POST', path: '/messages/send' });
 * ```
 */
export function connectMock(target: string | MockService, options: ConnectMockOptions = {}): MockControl {
  if (hasMethods(target, ['state', 'requests', 'emit'])) return inProcess(target as MockService);
  const origin = typeof target === 'string' ? httpOrigin(target) : undefined;
  if (origin === undefined)
    throw new InvalidArgumentError(
      `connectMock needs the mock's URL (http://127.0.0.1:4010/api/v1) or a mock in this process, got ${showWithheld(target)}.`,
    );
  if (options.controlToken !== undefined && typeof options.controlToken !== 'string')
    throw new InvalidArgumentError('The `controlToken` option must be a string.');
  return overHttp(new ControlHttp(origin, options));
}

/** The control API of a mock in this process: its own methods, as promises. */
function inProcess(mock: MockService): MockControl {
  const read = <T>(run: () => T): Promise<T> => Promise.resolve().then(run);
  // As over HTTP, a call that changes the mock resolves once the deliveries it caused were attempted.
  const call = async <T>(run: () => T | Promise<T>): Promise<T> => {
    const before = mock.clock.underWay();
    const running = run();
    const caused = mock.clock.startedSince(before);
    const result = await running;
    await Promise.allSettled(caused);
    return result;
  };
  return {
    health: () =>
      read(() => ({
        ok: true as const,
        variant: mock.variant,
        baseUrl: mock.baseUrl,
        now: mock.clock.date().toISOString(),
      })),
    state: (stateOptions) => read(() => mock.state(stateOptions)),
    requests: (filter) => read(() => mock.requests(filter)),
    deliveries: (page = {}) =>
      read(() => structuredClone(pageById(mock.deliveries, checkArguments(DeliveriesQuery, page, 'deliveries')))),
    redeliver: (id) => call(() => mock.redeliver(id)),
    clock: {
      advance: (ms) =>
        call(async () => {
          await mock.clock.advance(ms);
          return { now: mock.clock.date().toISOString() };
        }),
    },
    inject: (fault) => call(() => mock.inject(fault)),
    faults: () => read(() => mock.faults()),
    clearFaults: () => call(() => mock.clearFaults()),
    createKey: (options) => call(() => mock.createKey(options)),
    revokeKey: (key) => call(() => mock.revokeKey(key)),
    receiveMessage: (message) => call(() => structuredClone(mock.receiveMessage(message))),
    updateConversation: (id, change) => call(() => structuredClone(mock.updateConversation(id, change))),
    setMessageStatus: (id, change) => call(() => structuredClone(mock.setMessageStatus(id, change))),
    registerWebhook: (endpoint) => call(() => structuredClone(mock.registerWebhook(endpoint))),
    removeWebhook: (id) => call(() => mock.removeWebhook(id)),
    enableWebhook: (id) => call(() => structuredClone(mock.enableWebhook(id))),
    emit: (event, emitOptions) => call(() => mock.emit(event, emitOptions)),
    reset: () => call(() => mock.reset()),
  };
}

/** The control API over HTTP. */
function overHttp(http: ControlHttp): MockControl {
  return {
    health: () => http.call('GET', '/health'),
    state: (stateOptions = {}) => http.call('GET', `/state${queryString(stateOptions)}`),
    requests: (filter = {}) => http.call('GET', `/requests${queryString(filter)}`),
    deliveries: (page = {}) => http.call('GET', `/deliveries${queryString(page)}`),
    redeliver: (id) => http.call('POST', `/deliveries/${encodeURIComponent(String(id))}/redeliver`),
    clock: { advance: (ms) => http.call('POST', '/clock/advance', { ms }) },
    inject: async (fault) => {
      if (fault.route instanceof RegExp)
        throw new InvalidArgumentError('Over HTTP a fault route is a string ("POST /messages/send"), not a RegExp.');
      await http.call('POST', '/faults', fault);
    },
    faults: () => http.call('GET', '/faults'),
    clearFaults: () => http.call('DELETE', '/faults'),
    createKey: async (options = {}) => (await http.call<{ key: string }>('POST', '/keys', options)).key,
    revokeKey: (key) => http.call('DELETE', `/keys/${encodeURIComponent(key)}`),
    receiveMessage: (message) => http.call('POST', '/inbound', message),
    updateConversation: (id, change) => http.call('PATCH', `/conversations/${encodeURIComponent(String(id))}`, change),
    setMessageStatus: (id, change) => http.call('POST', `/messages/${encodeURIComponent(String(id))}/status`, change),
    registerWebhook: (endpoint) => http.call('POST', '/webhooks', endpoint),
    removeWebhook: (id) => http.call('DELETE', `/webhooks/${encodeURIComponent(String(id))}`),
    enableWebhook: (id) => http.call('POST', `/webhooks/${encodeURIComponent(String(id))}/enable`),
    emit: (event, emitOptions = {}) => http.call('POST', '/events', { event, ...emitOptions }),
    reset: () => http.call('POST', '/reset'),
  };
}

/** The origin of an http(s) URL, or undefined. */
function httpOrigin(url: string): string | undefined {
  try {
    const { protocol, origin } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? origin : undefined;
  } catch {
    return undefined;
  }
}

/** Calls of the control API of one mock over HTTP. */
class ControlHttp {
  readonly #origin: string;
  readonly #token: string | undefined;
  readonly #fetch: typeof fetch | undefined;

  constructor(origin: string, options: ConnectMockOptions) {
    this.#origin = origin;
    this.#token = options.controlToken;
    this.#fetch = options.fetch;
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.#token !== undefined) headers.authorization = `Bearer ${this.#token}`;
    const url = `${this.#origin}${CONTROL_PREFIX}${path}`;
    let response: Response;
    try {
      response = await (this.#fetch ?? globalThis.fetch)(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new BizMsgError(`Could not reach the mock's control API at ${url}: is bizmsg-mock running there?`, {
        cause: error,
      });
    }
    const text = await response.text();
    if (!response.ok) throw refusalOf(method, path, response.status, text);
    const answer = text === '' ? undefined : parsedJson(text);
    if (text !== '' && answer === undefined)
      throw new BizMsgError(
        `${method} ${url} answered ${response.status} with a body that is not JSON: is it a bizmsg-mock?`,
      );
    return answer as T;
  }
}

/** The error of a refused call: an InvalidArgumentError for what a call in process would refuse too. */
function refusalOf(method: string, path: string, status: number, text: string): Error {
  // Not the control API's envelope (a proxy's page, another server on that port): the status says enough.
  const error = ControlErrorOutput.safeParse(parsedJson(text)).data?.error;
  if (error !== undefined && (status === 400 || status === 404 || status === 409))
    return new ControlArgumentError(error.message, status, error.details);
  return new BizMsgError(
    `${method} ${CONTROL_PREFIX}${path} failed with ${status}: ${error?.message ?? `HTTP ${status}`}`,
  );
}

/** The JSON in `text`, or undefined when it is not JSON. */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function queryString(filter: JournalFilter | IdPage | { deliveries?: number }): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) if (value !== undefined) params.set(name, String(value));
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}
