// Making sure msw's Service Worker controls the page before the browser mock says it started.
/** How long `start()` waits for the page to come under the worker's control once msw says it started. */
const CONTROL_WAIT_MS = 2000;

/**
 * Resolves once `registration`'s worker controls this page, or rejects saying why it does not: a
 * worker whose scope does not cover the page starts without complaint, and the page's requests
 * would then go to the network and fail as network errors, far from the cause.
 */
export async function ensurePageControlled(registration: ServiceWorkerRegistration | undefined): Promise<void> {
  const container = navigator.serviceWorker;
  const wanted = registration?.active?.scriptURL;
  const controlled = () =>
    container.controller !== null && (wanted === undefined || container.controller.scriptURL === wanted);
  if (controlled()) return;
  // claim() on activation hands the page over, reported by a controllerchange that may come a little later.
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      container.removeEventListener('controllerchange', done);
      resolve();
    };
    const timer = setTimeout(done, CONTROL_WAIT_MS);
    container.addEventListener('controllerchange', done);
  });
  if (controlled()) return;
  const scope = registration?.scope ?? 'unknown';
  throw new Error(
    `createMockWorker: msw's Service Worker (${wanted ?? 'unknown script'}, scope ${scope}) started but does not ` +
      `control this page (${location.href}), so the page's requests would go to the network. Serve ` +
      "mockServiceWorker.js from the origin's root (`npx msw init public/`), or register it with a scope that covers this page.",
  );
}
