// MockService: the reference service, whichever face requests reach it through (msw, HTTP, a Worker).
import { authenticate, authorize } from './rules/auth.js';
import { VirtualClock } from './state/clock.js';
import type { MockContext } from './context.js';
import { WebhookDispatcher } from './state/dispatcher.js';
import { envelopeOf, type MockEnvelope } from './rules/envelope.js';
import { FaultInjector, type FaultSpec } from './rules/faults.js';
import { MockHttpError, MockNetworkError } from './rules/http-error.js';
import { checkDeclaredLength } from './rules/json-body.js';
import { Messaging } from './state/messaging.js';
import {
  DEFAULT_PLAN,
  DEFAULT_TEMPLATES,
  SCOPES,
  VARIANT1_PLANS,
  VARIANT2_PLANS,
  type MockKeySpec,
  type MockPlan,
  type MockServerOptions,
  type Scope,
} from './options.js';
import { seededRandom } from './state/random.js';
import { RateLimiter } from './rules/rate-limiter.js';
import type { MockAnswer, MockRequest } from './rules/request.js';
import { Router, type RouteInput } from './rules/router.js';
import { accountRoutes } from './routes/account.js';
import { campaignRoutes } from './routes/campaigns.js';
import { contactRoutes } from './routes/contacts.js';
import { conversationRoutes } from './routes/conversations.js';
import { messageRoutes } from './routes/messages.js';
import { registerEndpoint, webhookRoutes } from './routes/webhooks.js';
import {
  MockStore,
  type MockKey,
  type MockState,
  type StoredConversation,
  type StoredMessage,
  type StoredWebhookEndpoint,
} from './state/store.js';
import { checkPhone, parseWith } from './rules/validate.js';
import type { Variant } from '../contract/variant.js';
import { openApiDocument } from '../openapi/document.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { showValue } from '../shared/describe.js';
import { checkMs, MAX_TIMER_MS } from '../shared/timers.js';
import { WebhookEndpointCreateSchema } from '../schemas/webhook-endpoint-params.js';
import type { WebhookEventKind } from '../schemas/webhook-endpoint.js';

const DEFAULT_BASE_URL = 'https://api.bizmsg.test/api/v1';

/** Where the mock serves its OpenAPI document, below the base URL. */
const OPENAPI_PATH = '/openapi.json';

/**
 * The reference service, independent of how requests reach it: `handle(request)` answers a
 * fetch `Request` exactly as the service would, from in-memory state on a virtual clock.
 */
export class MockService {
  /** The variant served. */
  readonly variant: Variant;
  /** Base URL of the served API. */
  readonly baseUrl: string;
  /** A seeded key with every scope. */
  readonly apiKey: string;
  /** The mock's time: real time plus what `advance(ms)` added. */
  readonly clock = new VirtualClock();
  readonly #basePath: string;
  readonly #options: MockServerOptions;
  readonly #plans: Record<string, MockPlan>;
  readonly #envelope: MockEnvelope;
  readonly #random: () => number;
  readonly #limiter = new RateLimiter();
  readonly #faults: FaultInjector;
  readonly #router: Router;
  readonly #context: MockContext;
  #store = new MockStore();
  #openApi: string | undefined;
  #dateSecond = Number.NaN;
  #dateText = '';

  constructor(options: MockServerOptions = {}) {
    this.#options = options;
    this.variant = checkVariant(options.variant ?? 2);
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.#basePath = new URL(this.baseUrl).pathname;
    this.#plans = mergePlans(this.variant, options.plans);
    this.#envelope = envelopeOf(this.variant);
    this.#random = seededRandom((typeof options.seed === 'number' ? options.seed : options.seed?.random) ?? 1);
    this.#faults = new FaultInjector(this.#random, this.variant);
    this.apiKey = this.#newKeyString();
    const events = new WebhookDispatcher(
      () => this.#store,
      this.clock,
      checkMs('The `webhookTimeout` option', options.webhookTimeout, 10_000, { min: 1, max: MAX_TIMER_MS }),
    );
    this.#context = {
      variant: this.variant,
      clock: this.clock,
      events,
      messaging: new Messaging(() => this.#store, this.clock, events),
      templates: new Set(options.templates ?? DEFAULT_TEMPLATES),
      store: () => this.#store,
    };
    this.#router = new Router([
      ...contactRoutes(this.#context),
      ...messageRoutes(this.#context),
      ...(this.variant === 2
        ? [...conversationRoutes(this.#context), ...campaignRoutes(this.#context), ...webhookRoutes(this.#context)]
        : []),
      ...accountRoutes(this.#context),
    ]);
    this.#applySeed();
  }

  /** Read access to the state: contacts, messages, conversations, campaigns, endpoints, keys. */
  get store(): MockState {
    return this.#store;
  }

  /** Every webhook delivery attempt so far. */
  get deliveries(): MockState['deliveries'] {
    return this.#store.deliveries;
  }

  /** Notification e-mails sent to the account owner. */
  get emails(): MockState['emails'] {
    return this.#store.emails;
  }

  /**
   * Answers one request as the service would: every failure is an answer in the variant's
   * envelope. Throws only `MockNetworkError`, for an injected connection failure.
   */
  async handle(request: MockRequest): Promise<Response> {
    const { status, headers, body } = await this.answer(request);
    return new Response(body, { status, headers });
  }

  /**
   * `handle` without the fetch `Response`: the answer as plain data, for adapters that write it
   * themselves (the HTTP server does). It comes at once when nothing needs waiting for (no
   * fault's delay, no body to read), else as a promise: a request needs no turn of the event
   * loop it does not have to wait for. Throws (or rejects with) only `MockNetworkError`.
   */
  answer(request: MockRequest): MockAnswer | Promise<MockAnswer> {
    try {
      const url = this.#urlOf(request);
      const path =
        url.pathname === this.#basePath
          ? '/'
          : url.pathname.startsWith(`${this.#basePath}/`)
            ? url.pathname.slice(this.#basePath.length)
            : undefined;
      if (path === undefined) throw new MockHttpError('RESOURCE_NOT_FOUND', `No API at ${url.pathname}.`);
      // The document needs no key and stays out of faults and rate limits: tools load it first.
      if (path === OPENAPI_PATH && request.method === 'GET') return this.#json(200, this.#openApiText(), {});
      const fault = this.#faults.apply(request.method, path);
      if (fault === undefined) return this.#route(request, url, path);
      return fault.then(
        () => this.#route(request, url, path),
        (error: unknown) => this.#failure(error, {}),
      );
    } catch (error) {
      return this.#failure(error, {});
    }
  }

  /** The answer of the route `path` names, from authentication on. */
  #route(request: MockRequest, url: URL, path: string): MockAnswer | Promise<MockAnswer> {
    let rateHeaders: Record<string, string> = {};
    try {
      checkDeclaredLength(request);
      const key = authenticate(request, this.variant, this.#store);
      const plan = this.#plans[key.plan]!;
      rateHeaders = this.#limiter.hit(key.key, plan, this.clock.now());
      const match = this.#router.match(request.method, path);
      if (match === undefined)
        throw new MockHttpError(
          'RESOURCE_NOT_FOUND',
          `No endpoint ${request.method} ${path} in Variant ${this.variant}.`,
        );
      if ('allowed' in match) throw methodNotFound(request.method, path, match.allowed);
      authorize(key, match.route.endpoint.scope);
      const { endpoint } = match.route;
      const outcome = match.route.handle(new Input(request, match.params, url, key, plan));
      const headers = rateHeaders;
      if (!(outcome instanceof Promise))
        return this.#json(endpoint.status, this.#envelope.success(outcome.data, outcome.meta), headers);
      return outcome.then(
        (result) => this.#json(endpoint.status, this.#envelope.success(result.data, result.meta), headers),
        (error: unknown) => this.#failure(error, headers),
      );
    } catch (error) {
      return this.#failure(error, rateHeaders);
    }
  }

  /** The error answer for what a request threw; an injected network error is thrown on. */
  #failure(error: unknown, rateHeaders: Record<string, string>): MockAnswer {
    if (error instanceof MockNetworkError) throw error;
    const answer = error instanceof MockHttpError ? error : unexpected(error);
    const { status, body } = this.#envelope.error(answer);
    return this.#json(status, this.#withoutKeys(body), { ...rateHeaders, ...answer.headers });
  }

  /** Adds a key; scopes left out mean all of them (`[]`: none), the plan defaults to the variant's largest named plan. */
  createKey(options: { scopes?: readonly Scope[]; plan?: string } = {}): string {
    const key = this.#newKeyString();
    this.#addKey({ key, ...options });
    return key;
  }

  /** Revokes a key: its requests get 401 KEY_REVOKED from now on. */
  revokeKey(key: string): void {
    const found = this.#store.keys.get(key);
    if (found === undefined) throw new InvalidArgumentError('revokeKey: no such key.');
    found.revoked = true;
  }

  /** Simulates an inbound message from `from`; it opens a conversation if needed. */
  receiveMessage({ from, body }: { from: string; body: string }): StoredMessage {
    checkPhone(from, 'from');
    return this.#context.messaging.receive(from, body);
  }

  /** Changes a conversation (status, assignee); closing it emits `conversation.closed`. */
  updateConversation(
    id: number,
    change: { status?: StoredConversation['status']; assigned_to?: string | null },
  ): StoredConversation {
    return this.#context.messaging.updateConversation(id, change);
  }

  /** Registers a webhook endpoint directly, as the dashboard would (Variant 1 has no endpoint for it). */
  registerWebhook(endpoint: {
    url: string;
    events: readonly WebhookEventKind[];
    secret: string;
  }): StoredWebhookEndpoint {
    return registerEndpoint(this.#context, parseWith(WebhookEndpointCreateSchema, endpoint));
  }

  /** Injects a fault (status, network error or delay) into matching requests. */
  inject(fault: FaultSpec): void {
    this.#faults.inject(fault);
  }

  /** Removes all injected faults. */
  clearFaults(): void {
    this.#faults.clear();
  }

  /** Back to the seeded state: seed data and keys only, clock at real time, no faults, fresh rate windows. */
  reset(): void {
    this.#store = new MockStore();
    this.clock.reset();
    this.#faults.clear();
    this.#limiter.reset();
    this.#applySeed();
  }

  /** Stops the clock's real-time timer. */
  stop(): void {
    this.clock.stop();
  }

  /** This variant's OpenAPI 3.1 document, naming this mock's base URL as its server: what `GET {baseUrl}/openapi.json` answers. */
  openApiDocument(): Record<string, unknown> {
    return JSON.parse(this.#openApiText()) as Record<string, unknown>;
  }

  /** The document as JSON, built on first use. */
  #openApiText(): string {
    return (this.#openApi ??= JSON.stringify(openApiDocument(this.variant, { serverUrl: this.baseUrl })));
  }

  #urlOf(request: MockRequest): URL {
    try {
      return new URL(request.url);
    } catch {
      throw new MockHttpError('RESOURCE_NOT_FOUND', 'No API at this URL.');
    }
  }

  /**
   * An error answer with every known key replaced: a key sent in a path (`GET /contacts/<key>`)
   * must not come back in the 404's message.
   */
  #withoutKeys(body: unknown): string {
    let text = JSON.stringify(body);
    for (const key of this.#store.keys.keys()) if (text.includes(key)) text = text.replaceAll(key, '[redacted]');
    return text;
  }

  #json(status: number, body: unknown, headers: Record<string, string>): MockAnswer {
    return {
      status,
      headers: { 'content-type': 'application/json', date: this.#httpDate(), ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    };
  }

  /** The clock's time as an HTTP date, formatted once per second. */
  #httpDate(): string {
    const second = Math.floor(this.clock.now() / 1000);
    if (second !== this.#dateSecond) {
      this.#dateSecond = second;
      this.#dateText = new Date(second * 1000).toUTCString();
    }
    return this.#dateText;
  }

  #applySeed(): void {
    this.#addKey({ key: this.apiKey });
    for (const spec of this.#options.keys ?? []) this.#addKey(spec);
    const seed = typeof this.#options.seed === 'object' ? this.#options.seed : {};
    const now = this.clock.date().toISOString();
    for (const { tags, custom_fields, ...contact } of seed.contacts ?? []) {
      checkPhone(contact.phone, 'seed.contacts phone');
      const id = this.#store.nextId('contact');
      this.#store.addContact({
        id,
        ...contact,
        tags: [...(tags ?? [])],
        custom_fields: { ...custom_fields },
        created_at: now,
        updated_at: now,
      });
    }
    for (const endpoint of seed.webhooks ?? []) this.registerWebhook(endpoint);
  }

  #addKey({ key, scopes, plan, revoked }: MockKeySpec): void {
    const planName = plan ?? DEFAULT_PLAN[this.variant];
    if (!Object.hasOwn(this.#plans, planName)) {
      throw new InvalidArgumentError(
        `Unknown plan "${planName}"; this mock has: ${Object.keys(this.#plans).join(', ')}.`,
      );
    }
    for (const scope of scopes ?? []) {
      if (!(SCOPES as readonly string[]).includes(scope)) throw new InvalidArgumentError(`Unknown scope "${scope}".`);
    }
    this.#store.keys.set(key, {
      key,
      scopes: scopes === undefined ? [...SCOPES] : [...scopes],
      plan: planName,
      revoked: revoked ?? false,
    });
  }

  #newKeyString(): string {
    let hex = '';
    while (hex.length < 32)
      hex += Math.floor(this.#random() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return `sk_test_${hex}`;
  }
}

/** What a route handler gets; the query is parsed only for the routes that read it. */
class Input implements RouteInput {
  readonly #url: URL;

  constructor(
    readonly request: MockRequest,
    readonly params: Record<string, string>,
    url: URL,
    readonly key: MockKey,
    readonly plan: MockPlan,
  ) {
    this.#url = url;
  }

  get query(): URLSearchParams {
    return this.#url.searchParams;
  }
}

/** 404 RESOURCE_NOT_FOUND for a method a path does not have, with the methods it has in `Allow` (see docs/decisions.md). */
function methodNotFound(method: string, path: string, allowed: readonly string[]): MockHttpError {
  const list = allowed.join(', ');
  return new MockHttpError(
    'RESOURCE_NOT_FOUND',
    `No endpoint ${method} ${path}; this path has ${list}.`,
    { allowed_methods: [...allowed] },
    { allow: list },
  );
}

/** 500 INTERNAL_ERROR for a failure of the mock itself; it names the error's class, never its message. */
function unexpected(error: unknown): MockHttpError {
  const name = error instanceof Error ? error.name : typeof error;
  return new MockHttpError('INTERNAL_ERROR', `The mock failed unexpectedly (${name}).`);
}

function checkVariant(variant: unknown): Variant {
  if (variant !== 1 && variant !== 2)
    throw new InvalidArgumentError(`The \`variant\` option must be 1 or 2, got ${showValue(variant)}.`);
  return variant;
}

function mergePlans(variant: Variant, overrides: MockServerOptions['plans'] = {}): Record<string, MockPlan> {
  // A null prototype: plan names come from the user, and "__proto__" must stay a name.
  const plans: Record<string, MockPlan> = Object.assign(
    Object.create(null) as Record<string, MockPlan>,
    variant === 1 ? VARIANT1_PLANS : VARIANT2_PLANS,
  );
  for (const [name, plan] of Object.entries(overrides)) {
    const merged = { ...plans[name], ...plan } as MockPlan;
    if (!Number.isInteger(merged.rateLimit) || merged.rateLimit < 1)
      throw new InvalidArgumentError(`Plan "${name}" needs a positive integer rateLimit.`);
    // An infinite window would make every window start at NaN, and the limit never apply.
    if (merged.window !== undefined && !(merged.window >= 1000 && Number.isFinite(merged.window))) {
      throw new InvalidArgumentError(
        `Plan "${name}": window is a finite number of ms, at least 1000, got ${showValue(merged.window)}.`,
      );
    }
    plans[name] = merged;
  }
  return plans;
}
