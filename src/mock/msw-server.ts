import { http, HttpResponse, type HttpHandler } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { MockNetworkError } from './http-error.js';
import type { MockServerOptions } from './options.js';
import { MockService } from './service.js';

/** The reference service on msw: `handlers` for your own `setupServer`, or `listen()` / `close()`. */
export class MockServer extends MockService {
  /** msw request handlers serving `baseUrl`; compose them into your own `setupServer(...)`. */
  readonly handlers: HttpHandler[];
  /** Mocks listening in this process; one msw interception serves them all, by base URL. */
  static readonly #listening = new Set<MockServer>();
  static #interception: SetupServer | undefined;

  constructor(options?: MockServerOptions) {
    super(options);
    // A predicate, not a path pattern: msw's patterns decode the path and throw on a malformed
    // escape, where the service answers 404.
    this.handlers = [http.all(({ request }) => this.#serves(request), ({ request }) => this.#answer(request))];
  }

  /** Starts intercepting fetch in this process; other requests (webhook receivers) pass through. */
  listen(): void {
    if (MockServer.#interception === undefined) {
      MockServer.#interception = setupServer(...MockServer.#dispatcher());
      MockServer.#interception.listen({ onUnhandledRequest: 'bypass' });
    }
    MockServer.#listening.add(this);
  }

  /** Stops serving (and intercepting, once no mock listens) and stops the clock's timer. */
  close(): void {
    MockServer.#listening.delete(this);
    if (MockServer.#listening.size === 0) {
      MockServer.#interception?.close();
      MockServer.#interception = undefined;
    }
    this.stop();
  }

  static #dispatcher(): HttpHandler[] {
    return [
      http.all(
        ({ request }) => [...MockServer.#listening].some((mock) => mock.#serves(request)),
        ({ request }) => [...MockServer.#listening].find((mock) => mock.#serves(request))!.#answer(request),
      ),
    ];
  }

  #serves(request: Request): boolean {
    return request.url.startsWith(`${this.baseUrl}/`);
  }

  async #answer(request: Request): Promise<Response> {
    try {
      return await this.handle(request);
    } catch (error) {
      if (error instanceof MockNetworkError) return HttpResponse.error();
      throw error;
    }
  }
}

/**
 * A stateful mock of one service variant, on msw.
 *
 * @example
 * ```ts
 * const mock = createMockServer({ variant: 2 });
 * mock.listen(); // or: setupServer(...mock.handlers, ...yours).listen()
 * const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
 * await client.messages.sendText({ to: '+4915112345678', messaging_account_id: 1, body: 'Hi' });
 * await mock.clock.advance(1000); // delivered; webhooks POSTed
 * mock.close();
 * ```
 */
export function createMockServer(options?: MockServerOptions): MockServer {
  return new MockServer(options);
}
