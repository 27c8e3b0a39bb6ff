// Chromium: the entries a page can load, bundled for the browser; the test calls window.runMatrix.
// The mock runs in the page on msw's Service Worker (/mockServiceWorker.js, as `npx msw init` copies it).
import * as main from 'bizmsg';
import * as mock from 'bizmsg/mock';
import * as webhooks from 'bizmsg/webhooks';
import { runScenario } from './scenario.mjs';

// Generous: the machine is shared; a worker that starts at all does so in well under a second.
const START_TIMEOUT_MS = 30_000;

window.runMatrix = async () => {
  const worker = mock.createMockWorker({ variant: 2 });
  try {
    await start(worker);
    const entries = { bizmsg: main, 'bizmsg/webhooks': webhooks, 'bizmsg/mock': mock };
    return await runScenario({ entries, baseUrl: worker.baseUrl, apiKey: worker.apiKey, sync: false });
  } finally {
    worker.stop();
  }
};

/** Starts the mock's Service Worker, failing with a message that says what went wrong instead of hanging. */
async function start(worker, options = {}) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `msw's Service Worker did not start within ${START_TIMEOUT_MS} ms: is /mockServiceWorker.js the installed msw's script, as \`npx msw init\` copies it?`,
          ),
        ),
      START_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([worker.start({ quiet: true, ...options }), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** start() with the worker script at `url`: "started", or the message start() rejected with. */
window.startWorkerAt = async (url) => {
  const worker = mock.createMockWorker({ variant: 2 });
  try {
    await start(worker, { serviceWorker: { url } });
    return 'started';
  } catch (error) {
    return error.message;
  } finally {
    worker.stop();
  }
};
