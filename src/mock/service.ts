// MockService: the reference service, whichever face requests reach it through (msw, HTTP, a
// Worker), and every way to steer and inspect it; the control API over HTTP calls these methods.
import type { Variant } from '../contract/variant.js';
import { openApiDocument } from '../openapi/document.js';
import type { WebhookEventKind } from '../schemas/event-kinds.js';
import { showValue, showWithheld } from '../shared/describe.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { checkInteger } from '../shared/guards.js';
import { checkMs, MAX_TIMER_MS, raceAbort } from '../shared/timers.js';
import type { MockContext } from './context.js';
import { InProcessCustomer, type CustomerHost, type MockCustomer } from './customer/customer.js';
import { badArgument, ControlArgumentError, unknownId } from './calls/errors.js';
import { customerPhone, e164 } from './calls/phone.js';
import {
  checkArguments,
  ConversationChangeInput,
  EmitInput,
  InboundInput,
  JournalQuery,
  KeyInput,
  MessageStatusInput,
  WebhookInput,
  StateQuery,
} from './calls/schemas.js';
import type { MockServedOn, MockServerOptions, Scope } from './options.js';
import { accountRoutes } from './routes/account.js';
import { campaignRoutes } from './routes/campaigns.js';
import { contactRoutes } from './routes/contacts.js';
import { conversationRoutes } from './routes/conversations.js';
import { messageRoutes } from './routes/messages.js';
import { registerEndpoint, webhookRoutes } from './routes/webhooks.js';
import { envelopeOf } from './rules/envelope.js';
import { FaultInjector, type FaultSpec, type InjectedFault } from './rules/faults.js';
import { MockNetworkError } from './wire/http-error.js';
import { OwnServer } from './rules/guard/own-server.js';
import { RequestPipeline } from './rules/pipeline.js';
import { RateLimiter } from './rules/rate-limiter.js';
import { readTemplates, type KnownTemplates } from './rules/templates.js';
import type { MockAnswer, MockRequest } from './wire/request.js';
import { Router } from './rules/router.js';
import { VirtualClock } from './state/clock.js';
import { WebhookDispatcher } from './state/dispatcher.js';
import { redact, RequestJournal, shownUrl, type RequestFilter } from './state/journal.js';
import { pageById } from './state/page.js';
import { KeyRing } from './state/keys.js';
import { Messaging } from './state/messaging.js';
import { SeededRandom } from './state/random.js';
import type {
  DeliveryAttempt,
  RecordedRequest,
  PendingTask,
  SentEmail,
  StoredCampaign,
  StoredContact,
  StoredConversation,
  StoredMessage,
  StoredWebhookEndpoint,
} from './state/records.js';
import { sampleData } from './state/samples.js';
import { applySeed } from './state/seed.js';
import { MockStore, type MockState } from './state/store.js';

const DEFAULT_BASE_URL = 'https://api.bizmsg.test/api/v1';
/** How much of the past the mock keeps unless told otherwise: requests, and delivery attempts. */
const DEFAULT_HISTORY = 1000;
const MAX_HISTORY = 10_000_000;

/** Everything the mock holds, as JSON: what `state()` gives, in process and over HTTP. */
export interface MockSnapshot {
  /** The virtual clock, ISO 8601. */
  now: string;
  /** Every contact, in creation order. */
  contacts: StoredContact[];
  /** The messages kept (the oldest are forgotten past a bound), oldest first. */
  messages: StoredMessage[];
  /** Every conversation, in creation order. */
  conversations: StoredConversation[];
  /** Every campaign, in creation order. */
  campaigns: StoredCampaign[];
  /** Every webhook endpoint registered, in creation order. */
  webhooks: StoredWebhookEndpoint[];
  /** Every webhook delivery attempt kept, oldest first. */
  deliveries: DeliveryAttempt[];
  /** The notification e-mails sent to the account owner, oldest first. */
  emails: SentEmail[];
  /** What the clock will do when it gets there, soonest first. */
  pending: PendingTask[];
  /** The account's templates by name: each one's declaration, or null for one known by name only. */
  templates: KnownTemplates;
}

/** Something the mock did: answered a request, attempted a delivery, or changed its state. */
export type MockActivity =
  | {
      /** A request answered. */
      kind: 'request';
      /** The HTTP method. */
      method: string;
      /** Below the base URL; null outside it. API keys redacted, as in the journal. */
      path: string | null;
      /** The whole path and query, API keys redacted. */
      url: string;
      /** The answer's status; 0 when an injected network error cut the connection. */
      status: number;
      /** Real time the mock took to answer. */
      durationMs: number;
    }
  | {
      /** A webhook delivery attempted. */
      kind: 'delivery';
      /** The attempt, what it sent and what came back. */
      attempt: DeliveryAttempt;
    }
  | {
      /** The state changed otherwise (the clock moved, a key, an endpoint or a fault changed). */
      kind: 'change';
      /** What changed, in words. */
      what: string;
    };

/**
 * The reference service, independent of how requests reach it: `handle(request)` answers a
 * fetch `Request` exactly as the service would, from in-memory state on a virtual clock; its
 * other methods steer it (clock, faults, keys, inbound messages, events) and inspect it.
 */
export class MockService {
  /** The variant served. */
  readonly variant: Variant;
  /** Base URL of the served API. */
  readonly baseUrl: string;
  /** A seeded key with every scope. */
  readonly apiKey: string;
  /** The mock's time: real time plus what `advance(ms)` added; `clock.stop()` freezes it until `clock.start()`. */
  readonly clock: VirtualClock;
  readonly #options: MockServerOptions;
  readonly #history: number;
  readonly #random: SeededRandom;
  readonly #keys: KeyRing;
  readonly #limiter = new RateLimiter();
  readonly #faults: FaultInjector;
  readonly #journal: RequestJournal;
  readonly #pipeline: RequestPipeline;
  readonly #context: MockContext;
  readonly #listeners = new Set<(activity: MockActivity) => void>();
  #store: MockStore;
  #openApi: string | undefined;
  /** `pause()` was called and `resume()` not since: no face serves the mock. */
  #paused = false;
  /** `pause()` stopped the clock (it ran), so `resume()` starts it. */
  #pausedByPause = false;
  /** Aborted when a face closes (`endUnderWay`): the customers' waits under way end. */
  #ended = new AbortController();
  /** What the customers of this mock (`customer(phone)`) use of it. */
  readonly #customerHost: CustomerHost;

  /** `servedOn`: where the face serving it on this machine reaches it (`startMockHttpServer` passes it). */
  constructor(options: MockServerOptions = {}, servedOn: MockServedOn = {}) {
    this.#options = options;
    this.variant = checkVariant(options.variant ?? 2);
    this.baseUrl = checkBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.#random = new SeededRandom((typeof options.seed === 'number' ? options.seed : options.seed?.random) ?? 1);
    const random = () => this.#random.next();
    this.#keys = new KeyRing(this.variant, options.plans, random);
    this.#faults = new FaultInjector(random, this.variant);
    this.#history = checkInteger(
      'The `history.deliveries` option',
      options.history?.deliveries,
      DEFAULT_HISTORY,
      0,
      MAX_HISTORY,
    );
    this.#journal = new RequestJournal(
      checkInteger('The `history.requests` option', options.history?.requests, DEFAULT_HISTORY, 0, MAX_HISTORY),
    );
    this.#store = new MockStore(this.#history);
    this.clock = new VirtualClock((what) => this.#notify({ kind: 'change', what }));
    this.apiKey = this.#keys.newKey();
    const events = new WebhookDispatcher(
      () => this.#store,
      this.clock,
      checkMs('The `webhookTimeout` option', options.webhookTimeout, 10_000, { min: 1, max: MAX_TIMER_MS }),
      (attempt) => this.#notify({ kind: 'delivery', attempt }),
    );
    this.#context = {
      variant: this.variant,
      clock: this.clock,
      events,
      messaging: new Messaging(() => this.#store, this.clock, events),
      templates: readTemplates(options.templates),
      ownServer: new OwnServer(this.baseUrl, servedOn.localHosts),
      store: () => this.#store,
    };
    this.#pipeline = this.#newPipeline();
    this.#customerHost = this.#newCustomerHost();
    UNDER_WAY.set(this, () => this.#endUnderWay());
    this.#seed();
  }

  /** Read access to the state: contacts, messages, conversations, campaigns, endpoints, keys. */
  get store(): MockState {
    return this.#store;
  }

  /** The webhook delivery attempts kept (the newest `history.deliveries`), oldest first. */
  get deliveries(): readonly DeliveryAttempt[] {
    return this.#store.deliveries;
  }

  /** Notification e-mails sent to the account owner. */
  get emails(): readonly SentEmail[] {
    return this.#store.emails;
  }

  /**
   * Answers one request as the service would: every failure is an answer in the variant's
   * envelope. Throws only `MockNetworkError`, for an injected connection failure, and the reason of
   * the request's signal when it aborts.
   */
  async handle(request: MockRequest): Promise<Response> {
    // As fetch does, an abort of the request's signal rejects with its reason at once (a fault's
    // delay still runs out, and the request still takes effect, as on a server that received it).
    const { status, headers, body } = await raceAbort(Promise.resolve(this.answer(request)), request.signal);
    return new Response(body, { status, headers });
  }

  /**
   * `handle` without the fetch `Response`: the answer as plain data, for adapters that write it
   * themselves (the HTTP server does). It comes at once when nothing needs waiting for (no
   * fault's delay, no body to read), else as a promise: a request needs no turn of the event
   * loop it does not have to wait for. Throws (or rejects with) only `MockNetworkError`.
   */
  answer(request: MockRequest): MockAnswer | Promise<MockAnswer> {
    if (!this.#journal.on && this.#listeners.size === 0) return this.#pipeline.answer(request);
    const watched = this.#journal.watch(request);
    const started = performance.now();
    const at = this.clock.now();
    const done = <A extends MockAnswer | undefined>(answer: A) => this.#recordRequest(watched, at, started, answer);
    // An injected network error cut the connection: journaled, then thrown on.
    const failed = (error: unknown): Promise<never> => {
      if (!(error instanceof MockNetworkError)) return Promise.reject(error);
      done(undefined);
      return Promise.reject(error);
    };
    let answer: MockAnswer | Promise<MockAnswer>;
    try {
      answer = this.#pipeline.answer(watched.request);
    } catch (error) {
      if (!(error instanceof MockNetworkError)) throw error;
      return failed(error);
    }
    return answer instanceof Promise ? answer.then(done, failed) : done(answer);
  }

  /** Calls `listener` with everything the mock does from now on; returns the function that stops it. */
  subscribe(listener: (activity: MockActivity) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The request journal: the requests `filter` picks (method, path or template, status or class), oldest first, API keys redacted. */
  requests(filter: RequestFilter = {}): RecordedRequest[] {
    const checked = checkArguments(JournalQuery, filter, 'requests');
    return this.#journal.entries(checked, [...this.#store.keys.keys()]);
  }

  /**
   * Everything the mock holds, as JSON (what `GET /_bizmsg/state` answers); `deliveries` keeps only
   * that many of the newest attempts (a page that reads them apart asks for 0).
   */
  state(options: { deliveries?: number | undefined } = {}): MockSnapshot {
    const { deliveries } = checkArguments(StateQuery, options, 'state');
    const store = this.#store;
    return structuredClone({
      now: this.clock.date().toISOString(),
      contacts: [...store.contacts],
      messages: [...store.messages.values()],
      conversations: store.conversations,
      campaigns: store.campaigns,
      webhooks: store.webhookEndpoints,
      deliveries: deliveries === undefined ? store.deliveries : pageById(store.deliveries, { limit: deliveries }),
      emails: store.emails,
      pending: this.clock.pending(),
      templates: this.#context.templates.toJSON(),
    }) as MockSnapshot;
  }

  /** Adds a key; scopes left out mean all of them (`[]`: none), the plan defaults to the variant's largest named plan. */
  createKey(options: { scopes?: readonly Scope[] | undefined; plan?: string | undefined } = {}): string {
    const { scopes, plan } = checkArguments(KeyInput, options, 'createKey');
    const key = this.#keys.newKey();
    this.#keys.add(this.#store, {
      key,
      ...(scopes === undefined ? {} : { scopes }),
      ...(plan === undefined ? {} : { plan }),
    });
    this.#notify({ kind: 'change', what: 'a key was created' });
    return key;
  }

  /** Revokes a key: its requests get 401 KEY_REVOKED from now on. */
  revokeKey(key: string): void {
    const found = typeof key === 'string' ? this.#store.keys.get(key) : undefined;
    // The message never quotes the key: it may be a real one.
    if (found === undefined) throw new ControlArgumentError('revokeKey: this mock has no such key.', 404);
    found.revoked = true;
    this.#notify({ kind: 'change', what: 'a key was revoked' });
  }

  /**
   * Simulates an inbound message from `from` (a customer writes); it opens a conversation if needed.
   * `from` is a number in any spelling (`+44 7700 900124`, `0044…`, `tel:+44…`), kept in E.164.
   */
  receiveMessage(message: { from: string; body: string }): StoredMessage {
    const { from, body } = checkArguments(InboundInput, message, 'receiveMessage');
    return this.#customerHost.receive(e164(from), body);
  }

  /**
   * A customer a test plays, by number in any spelling: `say(text)` writes to the app and resolves
   * with its answer, `transcript()` and `lastReply()` read the conversation. A number that is none
   * throws an `InvalidArgumentError` naming it.
   */
  customer(phone: string): MockCustomer {
    return new InProcessCustomer(this.#customerHost, customerPhone(phone, 'customer'));
  }

  /** Changes a conversation (status, assignee); closing it emits `conversation.closed`. */
  updateConversation(
    id: number,
    change: { status?: StoredConversation['status'] | undefined; assigned_to?: string | null | undefined },
  ): StoredConversation {
    const conversation = this.#store.conversations.find((c) => c.id === id);
    if (conversation === undefined) throw unknownId('conversation', id);
    const checked = checkArguments(ConversationChangeInput, change, 'updateConversation');
    return this.#changed(
      this.#context.messaging.updateConversation(conversation, checked),
      `conversation ${id} changed`,
    );
  }

  /**
   * Decides an outbound message's fate now: `delivered`, `read` or `failed` (never back: sent <
   * delivered < read < failed), with each step's event (`message.failed` carries `error`, a default
   * one when none is given); its own lifecycle stops there. An unknown id (404), a move back or to
   * where it is, or an inbound message (409) is refused and changes nothing.
   */
  setMessageStatus(
    id: string,
    change: { status: 'delivered' | 'read' | 'failed'; error?: { code: string; message: string } | undefined },
  ): StoredMessage {
    const message = typeof id === 'string' ? this.#store.messages.get(id) : undefined;
    if (message === undefined)
      throw new ControlArgumentError(`There is no message ${showValue(id)}.`, 404, { id: ['names no message'] });
    const { status, error } = checkArguments(MessageStatusInput, change, 'setMessageStatus');
    return this.#changed(
      this.#context.messaging.setStatus(message, status, error),
      `message ${message.id} was ${status}`,
    );
  }

  /** Registers a webhook endpoint directly, as the dashboard would (Variant 1 has no endpoint for it). */
  registerWebhook(endpoint: {
    url: string;
    events: readonly WebhookEventKind[];
    secret: string;
  }): StoredWebhookEndpoint {
    const checked = this.#checkedEndpoint(endpoint, 'registerWebhook', 'url');
    return this.#changed(registerEndpoint(this.#context, checked), `endpoint ${endpoint.url} registered`);
  }

  /** Removes a webhook endpoint: nothing more is delivered to it, its pending retries included. */
  removeWebhook(id: number): void {
    const endpoint = this.#endpoint(id);
    this.#store.removeWebhookEndpoint(endpoint);
    this.#context.events.forget(endpoint);
    this.#notify({ kind: 'change', what: `endpoint ${id} removed` });
  }

  /** Makes a disabled webhook endpoint active again; later events are delivered to it. */
  enableWebhook(id: number): StoredWebhookEndpoint {
    const endpoint = this.#endpoint(id);
    endpoint.status = 'active';
    delete endpoint.disabled_at;
    return this.#changed(endpoint, `endpoint ${id} enabled`);
  }

  /**
   * Sends one `event` through the normal delivery path (signed, retried on the schedule, an
   * endpoint disabled after the last retry): a realistic sample of its kind with `data` merged
   * over it, to every active endpoint subscribed to it, or to `endpointId` alone whatever it
   * subscribed to. Resolves with the first attempts, once they are answered.
   */
  emit(
    event: WebhookEventKind,
    options: { data?: Record<string, unknown> | undefined; endpointId?: number | undefined } = {},
  ): Promise<DeliveryAttempt[]> {
    try {
      const { data, endpointId } = checkArguments(EmitInput, { event, ...options }, 'emit');
      const endpoints = endpointId === undefined ? this.#subscribedTo(event) : [this.#activeEndpoint(endpointId)];
      const sample = sampleData(event, this.#store, this.clock.date().toISOString());
      return this.#context.events.deliver(event, { ...sample, ...data }, endpoints);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Delivers the event of attempt `id` again, now, outside the retry schedule; resolves with the new attempt. */
  redeliver(id: number): Promise<DeliveryAttempt> {
    try {
      const original = this.#store.deliveryLog.findLast((attempt) => attempt.id === id);
      if (original === undefined)
        throw new ControlArgumentError(
          `There is no delivery attempt ${JSON.stringify(id)} (the mock keeps the newest ${this.#history}).`,
          404,
        );
      const endpoint = this.#store.webhookEndpoints.find((e) => e.id === original.endpointId);
      if (endpoint === undefined)
        throw new ControlArgumentError(`Endpoint ${original.endpointId} of attempt ${id} was removed.`, 409);
      if (endpoint.status !== 'active')
        throw new ControlArgumentError(`Endpoint ${endpoint.id} of attempt ${id} is disabled: enable it first.`, 409);
      return this.#context.events.redeliver(original, endpoint);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Injects a fault (status, network error or delay) into matching requests. */
  inject(fault: FaultSpec): void {
    this.#faults.inject(fault);
    this.#notify({ kind: 'change', what: 'a fault was injected' });
  }

  /** The injected faults still in force, in the order they are tried. */
  faults(): InjectedFault[] {
    return this.#faults.list();
  }

  /** Removes all injected faults. */
  clearFaults(): void {
    this.#faults.clear();
    this.#notify({ kind: 'change', what: 'faults cleared' });
  }

  /**
   * Back to the seeded state: seed data and keys only, each seeded record as the seed describes it
   * (a seeded endpoint its failures disabled is active again), no delivery attempt, e-mail or retry
   * left, the deliveries under way ended; clock at real time and running (a `clock.stop()` is
   * undone; a paused mock's clock waits for its face to serve again), no faults, fresh rate windows,
   * an empty journal.
   */
  reset(): void {
    // The seeded sequence starts over, past the seeded key it gave first: keys and sampled faults repeat after each reset.
    this.#random.restart();
    this.#keys.newKey();
    this.#store = new MockStore(this.#history);
    this.#resetClock();
    // The deliveries of the store that is gone end, and hold no turn of the new one's.
    this.#context.events.reset();
    this.#faults.clear();
    this.#limiter.reset();
    this.#journal.clear();
    this.#seed();
    this.#notify({ kind: 'change', what: 'the mock was reset' });
  }

  /**
   * Pauses the mock's time: its clock stops (`clock.stop()`: frozen, no timer left), as the faces do
   * when they stop serving; a face that serves again (`listen()`, `start()`) resumes a clock this
   * call paused. Serving, if any, goes on: a face's `close()` (or a worker's `stop()`) ends that.
   */
  pause(): void {
    this.#paused = true;
    if (this.clock.stopped) return;
    this.#pausedByPause = true;
    this.clock.stop();
  }

  /** Starts the clock again if `pause()` stopped it; a clock the user stopped (`clock.stop()`) stays stopped. */
  resume(): void {
    this.#paused = false;
    if (!this.#pausedByPause) return;
    this.#pausedByPause = false;
    this.clock.start();
  }

  /**
   * The clock back at real time: running, as after `new`, unless the mock is paused: then it stands
   * (as `pause()` leaves it) until `resume()`. A test's `clock.stop()` must not outlive its reset.
   */
  #resetClock(): void {
    this.clock.reset();
    if (!this.#paused) return;
    this.#pausedByPause = true;
    this.clock.stop();
  }

  /** Ends what is under way on real time: deliveries in flight, customers' waits (see `endUnderWay`). */
  #endUnderWay(): void {
    this.#context.events.abortUnderWay();
    this.#ended.abort();
    this.#ended = new AbortController();
  }

  #newCustomerHost(): CustomerHost {
    return {
      store: () => this.#store,
      clock: this.clock,
      receive: (from, body) =>
        this.#changed(this.#context.messaging.receive(from, body), `a message came from ${from}`),
      watch: (changed) => this.subscribe(changed),
      ended: () => this.#ended.signal,
    };
  }

  /** This variant's OpenAPI 3.1 document, naming this mock's base URL as its server: what `GET {baseUrl}/openapi.json` answers. */
  openApiDocument(): Record<string, unknown> {
    return JSON.parse(this.#openApiText()) as Record<string, unknown>;
  }

  /** The document as JSON, built on first use. */
  #openApiText(): string {
    return (this.#openApi ??= JSON.stringify(openApiDocument(this.variant, { serverUrl: this.baseUrl })));
  }

  #newPipeline(): RequestPipeline {
    const context = this.#context;
    return new RequestPipeline({
      variant: this.variant,
      basePath: new URL(this.baseUrl).pathname,
      envelope: envelopeOf(this.variant),
      plans: this.#keys.plans,
      limiter: this.#limiter,
      faults: this.#faults,
      router: new Router([
        ...contactRoutes(context),
        ...messageRoutes(context),
        ...(this.variant === 2
          ? [...conversationRoutes(context), ...campaignRoutes(context), ...webhookRoutes(context)]
          : []),
        ...accountRoutes(context),
      ]),
      store: () => this.#store,
      now: () => this.clock.now(),
      openApiText: () => this.#openApiText(),
    });
  }

  #seed(): void {
    applySeed(this.#store, this.#options, {
      keys: this.#keys,
      apiKey: this.apiKey,
      now: this.clock.date().toISOString(),
      registerWebhook: (endpoint, index) =>
        registerEndpoint(this.#context, this.#checkedEndpoint(endpoint, 'seed', `seed.webhooks.${index}.url`)),
    });
  }

  /**
   * Journals one request (reading first what the service did not, so that the journal shows what
   * was sent) and tells the listeners; gives `answer` back, at once when nothing was left to read.
   */
  #recordRequest<A extends MockAnswer | undefined>(
    watched: ReturnType<RequestJournal['watch']>,
    at: number,
    started: number,
    answer: A,
  ): A {
    // What the route did not read is read now, in the background: the entry shows it once it has
    // arrived, and the answer waits for nothing (a body broken after it must not change it).
    if (this.#journal.on && answer?.status !== 413) void watched.readRest();
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    const { method, url } = watched.request;
    const path = this.#pipeline.pathOf(url) ?? null;
    if (this.#journal.on) this.#journal.record(watched, path, at, durationMs, answer);
    if (this.#listeners.size > 0) this.#notifyRequest(method, url, path, answer?.status ?? 0, durationMs);
    return answer;
  }

  #notifyRequest(method: string, url: string, path: string | null, status: number, durationMs: number): void {
    const keys = [...this.#store.keys.keys()];
    this.#notify({
      kind: 'request',
      method,
      path: path === null ? null : redact(path, keys),
      url: shownUrl(url, keys),
      status,
      durationMs,
    });
  }

  /** A webhook endpoint to register, checked: its schema, and a URL that does not lead back to the mock (`field` names it). */
  #checkedEndpoint(endpoint: unknown, what: string, field: string) {
    const checked = checkArguments(WebhookInput, endpoint, what);
    const problem = this.#context.ownServer.problemWith(checked.url);
    if (problem !== undefined) throw badArgument(field, problem, `${what}: ${field} ${problem}.`);
    return checked;
  }

  #endpoint(id: number): StoredWebhookEndpoint {
    const endpoint = this.#store.webhookEndpoints.find((e) => e.id === id);
    if (endpoint === undefined) throw unknownId('webhook endpoint', id);
    return endpoint;
  }

  #activeEndpoint(id: number): StoredWebhookEndpoint {
    const endpoint = this.#endpoint(id);
    if (endpoint.status !== 'active')
      throw new ControlArgumentError(`Webhook endpoint ${id} is disabled: enable it first.`, 409);
    return endpoint;
  }

  #subscribedTo(event: WebhookEventKind): StoredWebhookEndpoint[] {
    return this.#store.webhookEndpoints.filter((e) => e.status === 'active' && e.events.includes(event));
  }

  #changed<T>(result: T, what: string): T {
    this.#notify({ kind: 'change', what });
    return result;
  }

  #notify(activity: MockActivity): void {
    for (const listener of this.#listeners) {
      try {
        listener(activity);
      } catch {
        // A listener that throws must not break the request or the delivery it hears about.
      }
    }
  }
}

/** How each mock ends what it has under way (`endUnderWay`), by mock. */
const UNDER_WAY = new WeakMap<MockService, () => void>();

/**
 * Ends what `mock` has under way on real time, at once: webhook deliveries in flight or waiting their
 * turn (their connections end; each is recorded as a network error saying the mock closed, not
 * retried) and customers' `say` waits (each resolves with what came). What every face's `close()`
 * (and a worker's `stop()`) does, so that a test's teardown takes milliseconds; not exported by the
 * package's entries.
 */
export function endUnderWay(mock: MockService): void {
  UNDER_WAY.get(mock)?.();
}

/** The `variant` option, checked: 1 or 2. */
export function checkVariant(variant: unknown): Variant {
  if (variant !== 1 && variant !== 2)
    throw new InvalidArgumentError(`The \`variant\` option must be 1 or 2, got ${showValue(variant)}.`);
  return variant;
}

function checkBaseUrl(value: unknown): string {
  if (typeof value !== 'string' || !URL.canParse(value))
    throw new InvalidArgumentError(
      `The \`baseUrl\` option must be an absolute URL (https://api.bizmsg.test/api/v1), got ${showWithheld(value)}.`,
    );
  return value;
}
