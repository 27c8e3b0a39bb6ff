// How the mock answers one request to the service: the document, faults, authentication, the rate
// limit, the route, scopes, then the route itself; every failure an answer in the variant's envelope.
import type { Variant } from '../../contract/variant.js';
import type { MockPlan } from '../options.js';
import type { MockKey, MockStore } from '../state/store.js';
import { authenticate, authorize } from './auth.js';
import type { MockEnvelope } from './envelope.js';
import type { FaultInjector } from './faults.js';
import { MockHttpError, MockNetworkError } from '../wire/http-error.js';
import { checkDeclaredLength } from './json-body.js';
import type { RateLimiter } from './rate-limiter.js';
import type { MockAnswer, MockRequest } from '../wire/request.js';
import type { Router, RouteInput } from './router.js';

/** Where the mock serves its OpenAPI document, below the base URL. */
const OPENAPI_PATH = '/openapi.json';

/** What the pipeline answers with: the service's rules and state, as `MockService` wires them. */
export interface PipelineParts {
  readonly variant: Variant;
  readonly basePath: string;
  readonly envelope: MockEnvelope;
  readonly plans: Readonly<Record<string, MockPlan>>;
  readonly limiter: RateLimiter;
  readonly faults: FaultInjector;
  readonly router: Router;
  store(): MockStore;
  now(): number;
  /** The variant's OpenAPI document as JSON text. */
  openApiText(): string;
}

/** The answering of requests to the service. */
export class RequestPipeline {
  readonly #parts: PipelineParts;
  #dateSecond = Number.NaN;
  #dateText = '';

  constructor(parts: PipelineParts) {
    this.#parts = parts;
  }

  /** The path of `url` below the base URL (`/contacts/7`), or undefined when it is not under it (or no URL). */
  pathOf(url: URL | string): string | undefined {
    const { basePath } = this.#parts;
    let pathname: string;
    try {
      pathname = typeof url === 'string' ? new URL(url).pathname : url.pathname;
    } catch {
      return undefined;
    }
    if (pathname === basePath) return '/';
    return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined;
  }

  /**
   * The answer to `request`, at once when nothing needs waiting for (no fault's delay, no body to
   * read), else as a promise. Throws (or rejects with) only `MockNetworkError`.
   */
  answer(request: MockRequest): MockAnswer | Promise<MockAnswer> {
    try {
      const url = urlOf(request);
      const path = this.pathOf(url);
      if (path === undefined) throw new MockHttpError('RESOURCE_NOT_FOUND', `No API at ${url.pathname}.`);
      // The document needs no key and stays out of faults and rate limits: tools load it first.
      if (path === OPENAPI_PATH && request.method === 'GET') return this.#json(200, this.#parts.openApiText(), {});
      const fault = this.#parts.faults.apply(request.method, path);
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
    const { variant, envelope, plans, limiter, router } = this.#parts;
    let rateHeaders: Record<string, string> = {};
    try {
      checkDeclaredLength(request);
      const key = authenticate(request, variant, this.#parts.store());
      const plan = plans[key.plan]!;
      rateHeaders = limiter.hit(key.key, plan, this.#parts.now());
      const match = router.match(request.method, path);
      if (match === undefined)
        throw new MockHttpError('RESOURCE_NOT_FOUND', `No endpoint ${request.method} ${path} in Variant ${variant}.`);
      if ('allowed' in match) throw methodNotFound(request.method, path, match.allowed);
      authorize(key, match.route.endpoint.scope);
      const { endpoint } = match.route;
      const outcome = match.route.handle(new Input(request, match.params, url, key, plan));
      const headers = rateHeaders;
      if (!(outcome instanceof Promise))
        return this.#json(endpoint.status, envelope.success(outcome.data, outcome.meta), headers);
      return outcome.then(
        (result) => this.#json(endpoint.status, envelope.success(result.data, result.meta), headers),
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
    const { status, body } = this.#parts.envelope.error(answer);
    return this.#json(status, this.#withoutKeys(body), { ...rateHeaders, ...answer.headers });
  }

  /**
   * An error answer with every known key replaced: a key sent in a path (`GET /contacts/<key>`)
   * must not come back in the 404's message.
   */
  #withoutKeys(body: unknown): string {
    let text = JSON.stringify(body);
    for (const key of this.#parts.store().keys.keys())
      if (text.includes(key)) text = text.replaceAll(key, '[redacted]');
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
    const second = Math.floor(this.#parts.now() / 1000);
    if (second !== this.#dateSecond) {
      this.#dateSecond = second;
      this.#dateText = new Date(second * 1000).toUTCString();
    }
    return this.#dateText;
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

function urlOf(request: MockRequest): URL {
  try {
    return new URL(request.url);
  } catch {
    throw new MockHttpError('RESOURCE_NOT_FOUND', 'No API at this URL.');
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
