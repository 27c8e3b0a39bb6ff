import { http, HttpResponse, type HttpHandler } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { MockNetworkError } from './http-error.js';
import type { MockServerOptions } from './options.js';
import { MockService } from './service.js';

/** The reference service on msw: `handlers` for your own `setupServer`, or `listen()` / `close()`. */
export class MockServer extends MockService {
  /** msw request handlers serving `baseUrl`; compose them into your own `setupServer(...)`. */
  readonly handlers: HttpHandler[];
  #server: SetupServer | undefined;

  constructor(options?: MockServerOptions) {
    super(options);
    this.handlers = [http.all(`${this.baseUrl}/*`, ({ request }) => this.#answer(request))];
  }

  /** Starts intercepting fetch in this process; other requests (webhook receivers) pass through. */
  listen(): void {
    const server = (this.#server ??= setupServer(...this.handlers));
    server.listen({ onUnhandledRequest: 'bypass' });
  }

  /** Stops intercepting and stops the clock's timer. */
  close(): void {
    this.#server?.close();
    this.#server = undefined;
    this.stop();
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

/** A stateful mock of one service variant, on msw. */
export function createMockServer(options?: MockServerOptions): MockServer {
  return new MockServer(options);
}
