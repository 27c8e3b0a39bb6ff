// The mock as msw request handlers, and one msw interception shared by every mock of a process or page.
import type { HttpHandler } from 'msw';
// msw's `http` comes from its own subpath (`msw/core/http`): the `msw` entry also loads its
// WebSocket support, whose module-level BroadcastChannel keeps Deno (which cannot unref it) running
// forever. The caller passes it in: on Node msw is an optional peer, loaded only if installed.
import type { http as mswHttp } from 'msw/core/http';
import { InvalidArgumentError } from '../../shared/errors.js';
import { MockNetworkError } from '../wire/http-error.js';
import { blockedByService, requestBlock } from '../rules/guard/request-guard.js';
import type { MockService } from '../service.js';

/** msw handlers that answer every request under one of `mocks()`' base URLs with that mock. */
export function mockHandlers(http: typeof mswHttp, mocks: () => Iterable<MockService>): HttpHandler[] {
  // A predicate, not a path pattern: msw's patterns decode the path and throw on a malformed
  // escape, where the service answers 404.
  return [
    http.all(
      ({ request }) => serving(mocks(), request) !== undefined,
      ({ request }) => answer(serving(mocks(), request)!, request),
    ),
  ];
}

/**
 * The mocks one msw interception (`setupServer` in a process, `setupWorker` in a page) serves:
 * the first mock to join opens it, the last to leave closes it.
 */
export class SharedInterception<T> {
  readonly #mocks = new Set<MockService>();
  readonly #http: typeof mswHttp;
  readonly #close: (interception: T) => void;
  #interception: T | undefined;

  constructor(http: typeof mswHttp, close: (interception: T) => void) {
    this.#http = http;
    this.#close = close;
  }

  /** Serves `mock` too, opening the interception with `open` when none is open. */
  join(mock: MockService, open: (handlers: HttpHandler[]) => T): T {
    const other = [...this.#mocks].find((listening) => listening !== mock && listening.baseUrl === mock.baseUrl);
    // The first would answer every request of both: the second would never be reached, and say nothing.
    if (other !== undefined)
      throw new InvalidArgumentError(
        `Another mock listening in this process serves ${mock.baseUrl}: give each mock its own baseUrl ` +
          `(createMockServer({ variant: ${mock.variant}, baseUrl: 'https://v${mock.variant}.bizmsg.test/api/v1' })), or close the other first.`,
      );
    this.#interception ??= open(mockHandlers(this.#http, () => this.#mocks));
    this.#mocks.add(mock);
    return this.#interception;
  }

  /** Stops serving `mock`, and closes the interception once it serves none. */
  leave(mock: MockService): void {
    this.#mocks.delete(mock);
    if (this.#mocks.size > 0 || this.#interception === undefined) return;
    this.#close(this.#interception);
    this.#interception = undefined;
  }
}

function serving(mocks: Iterable<MockService>, request: Request): MockService | undefined {
  for (const mock of mocks) if (request.url.startsWith(`${mock.baseUrl}/`)) return mock;
  return undefined;
}

async function answer(mock: MockService, request: Request): Promise<Response> {
  // In process there is no Host to check, but a delivery of a mock led back to one is blocked here too.
  const block = requestBlock(request);
  if (block !== undefined) {
    const { status, headers, body } = blockedByService(mock.variant, block);
    return new Response(body, { status, headers });
  }
  try {
    return await mock.handle(request);
  } catch (error) {
    // Response.error() is what msw's HttpResponse.error() returns: msw fails the fetch with it.
    if (error instanceof MockNetworkError) return Response.error();
    throw error;
  }
}
