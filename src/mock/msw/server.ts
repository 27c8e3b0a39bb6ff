// The mock on msw's setupServer (Node, Bun, Deno): createMockServer. msw is an optional peer:
// node-peer.ts loads it if installed, and a mock made without it says to install it.
import type { HttpHandler } from 'msw';
import type { SetupServer } from 'msw/node';
import { mockHandlers, SharedInterception } from './handlers.js';
import { mswPeer } from './node-peer.js';
import { loadedMsw } from './peer.js';
import type { MockServerOptions } from '../options.js';
import { endUnderWay, MockService } from '../service.js';

/** The reference service on msw: `handlers` for your own `setupServer`, or `listen()` / `close()`. */
export class MockServer extends MockService {
  /** msw request handlers serving `baseUrl`; compose them into your own `setupServer(...)`. */
  readonly handlers: HttpHandler[];
  /** One msw interception in this process serves every listening mock, by base URL. */
  static #shared: SharedInterception<SetupServer> | undefined;

  /** Throws a BizMsgError that says to install msw when it is not installed. */
  constructor(options?: MockServerOptions) {
    const { http } = loadedMsw(mswPeer);
    super(options);
    this.handlers = mockHandlers(http, () => [this]);
  }

  /**
   * Starts intercepting fetch in this process; other requests (webhook receivers) pass through.
   * Another mock listening on the same base URL is an `InvalidArgumentError`: give each its own `baseUrl`.
   */
  listen(): void {
    const { http, setupServer } = loadedMsw(mswPeer);
    MockServer.#shared ??= new SharedInterception<SetupServer>(http, (server) => server.close());
    MockServer.#shared.join(this, (handlers) => {
      const server = setupServer(...handlers);
      server.listen({ onUnhandledRequest: 'bypass' });
      return server;
    });
    this.resume();
  }

  /**
   * Stops serving (and intercepting, once no mock listens) and pauses the clock until `listen()`
   * again. Webhook deliveries under way end at once (their connections too, recorded as network
   * errors saying so) and a customer's `say` resolves with what came: a test's teardown waits for
   * nothing.
   */
  close(): void {
    MockServer.#shared?.leave(this);
    endUnderWay(this);
    this.pause();
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
