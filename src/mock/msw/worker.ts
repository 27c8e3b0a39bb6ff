// The mock on msw's Service Worker in a browser page: createMockWorker.
import type { HttpHandler } from 'msw';
import { setupWorker, type SetupWorker, type StartOptions } from 'msw/browser';
import { http } from 'msw/core/http';
import { mockHandlers, SharedInterception } from './handlers.js';
import type { MockServerOptions } from '../options.js';
import { ensurePageControlled } from './page-control.js';
import { endUnderWay, MockService } from '../service.js';

/** The reference service in a browser, on msw's Service Worker: `handlers` for your own `setupWorker`, or `start()` / `stop()`. */
export class MockWorker extends MockService {
  /** msw request handlers serving `baseUrl`; compose them into your own `setupWorker(...)`. */
  readonly handlers: HttpHandler[] = mockHandlers(http, () => [this]);
  /** One Service Worker in this page serves every started mock, by base URL. */
  static readonly #shared = new SharedInterception<{
    worker: SetupWorker;
    started: Promise<ServiceWorkerRegistration | undefined>;
  }>(http, ({ worker }) => worker.stop());

  /**
   * Starts serving fetches from this page (once `public/mockServiceWorker.js` is registered, see
   * `npx msw init public/`); other requests pass through. `options` go to msw's `worker.start()`.
   * Rejects when the worker does not come to control the page (a scope that does not cover it).
   */
  async start(options?: StartOptions): Promise<void> {
    const { started } = MockWorker.#shared.join(this, (handlers) => {
      const worker = setupWorker(...handlers);
      return { worker, started: worker.start({ onUnhandledRequest: 'bypass', ...options }) };
    });
    this.resume();
    // A worker that failed to register, or does not control the page, serves nothing: the next start() tries afresh.
    try {
      await ensurePageControlled(await started);
    } catch (error) {
      this.stop();
      throw error;
    }
  }

  /**
   * Stops serving (and the Service Worker's interception, once no mock is started) and pauses the
   * clock until `start()` again; deliveries and customers' waits under way end at once.
   */
  stop(): void {
    MockWorker.#shared.leave(this);
    endUnderWay(this);
    this.pause();
  }
}

/** A stateful mock of one service variant, served in a browser page by msw's Service Worker. */
export function createMockWorker(options?: MockServerOptions): MockWorker {
  return new MockWorker(options);
}
