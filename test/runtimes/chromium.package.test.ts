import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/chromium.js';
import { bundleForWeb } from './bundle.js';
import { expectedScenario, type Entry } from './expected.js';
import { consumer, runText } from './helpers.js';
import { startPageServer } from './page-server.js';

// bizmsg/mock is its browser build (msw's Service Worker); bizmsg/redis is for Node.
const ENTRIES: Entry[] = ['bizmsg', 'bizmsg/webhooks', 'bizmsg/mock'];

let page: Awaited<ReturnType<typeof startPageServer>>;
let misplaced: Awaited<ReturnType<typeof startPageServer>>;
let browser: BrowserContext;
const profile = mkdtempSync(join(tmpdir(), 'bizmsg-chromium-'));
beforeAll(async () => {
  // What `npx msw init` copies into a public folder: the worker script of the msw the consumer installed.
  const serviceWorker = createRequire(join(consumer, 'package.json')).resolve('msw/mockServiceWorker.js');
  const script = readFileSync(serviceWorker, 'utf8');
  const pageScript = readFileSync(await bundleForWeb('browser.mjs', ['browser']), 'utf8');
  page = await startPageServer({ '/page.js': pageScript, '/mockServiceWorker.js': script });
  // Another origin, so that the root worker registered by the other test does not control its page.
  misplaced = await startPageServer({ '/page.js': pageScript, '/workers/mockServiceWorker.js': script });
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
});
afterAll(async () => {
  await browser?.close();
  await page?.close();
  await misplaced?.close();
  rmSync(profile, { recursive: true, force: true });
});

describe('the packed package in headless Chromium', () => {
  it("is Debian's Chromium", async () => {
    expect(await runText(CHROMIUM_PATH, ['--version'])).toMatch(/^Chromium \d+\./);
  });

  it("bundles the browser entries, calls the mock in the page through msw's Service Worker, verifies webhooks async", async () => {
    const tab = await browser.newPage();
    const problems: string[] = [];
    tab.on('pageerror', (error) => problems.push(error.message));
    // msw warns and errs on the console; Chromium's own "Failed to load resource" lines log every
    // 4xx answer, which the scenario asks for on purpose (and the page's missing favicon), as does
    // the client at its default level (warn) for the contact the scenario makes invalid on purpose.
    const expectedLines = ['Failed to load resource:', 'bizmsg: POST /contacts -> 422 '];
    tab.on('console', (message) => {
      const logged = message.type() === 'error' || message.type() === 'warning';
      if (logged && !expectedLines.some((line) => message.text().startsWith(line))) problems.push(message.text());
    });
    const answeredByTheWorker: string[] = [];
    tab.on('response', (response) => {
      const url = new URL(response.url());
      const line = `${response.request().method()} ${url.origin}${url.pathname} ${response.status()}`;
      if (response.fromServiceWorker()) answeredByTheWorker.push(line);
    });
    // goto() resolves on the load event, after the page's module script ran (or threw).
    await tab.goto(`${page.origin}/`);
    expect(problems).toEqual([]);
    const result = await tab.evaluate(() => (window as unknown as { runMatrix(): Promise<unknown> }).runMatrix());
    expect(problems).toEqual([]);
    // The client's calls never reached a network: the mock's base URL has no server, only the worker.
    const api = 'https://api.bizmsg.test/api/v1';
    expect(answeredByTheWorker).toEqual([
      `POST ${api}/contacts 201`,
      `GET ${api}/contacts 200`,
      `POST ${api}/messages/send 200`,
      `POST ${api}/contacts 422`,
    ]);
    expect(result).toEqual(expectedScenario(ENTRIES, 'browser'));
  });

  it("rejects start() when msw's worker is served where its scope does not cover the page", async () => {
    const tab = await browser.newPage();
    await tab.goto(`${misplaced.origin}/`);
    const url = '/workers/mockServiceWorker.js';
    const outcome = await tab.evaluate(
      (at) => (window as unknown as { startWorkerAt(url: string): Promise<string> }).startWorkerAt(at),
      url,
    );
    expect(outcome).toBe(
      `createMockWorker: msw's Service Worker (${misplaced.origin}${url}, scope ${misplaced.origin}/workers/) ` +
        `started but does not control this page (${misplaced.origin}/), so the page's requests would go to the ` +
        "network. Serve mockServiceWorker.js from the origin's root (`npx msw init public/`), or register it with a " +
        'scope that covers this page.',
    );
  });
});
