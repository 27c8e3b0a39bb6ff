import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MockHttpServer } from '../../src/mock/index.js';
import { bundleForWeb } from './bundle.js';
import { expectedScenario, type Entry } from './expected.js';
import { runText, startPackedMock } from './helpers.js';
import { startPageServer } from './page-server.js';

// Debian's chromium package (see .ci/run); never a browser download.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Not bizmsg/mock: it cannot be bundled for a browser yet (issue 10, item 3); bizmsg/redis is for Node.
const ENTRIES: Entry[] = ['bizmsg', 'bizmsg/webhooks'];

let server: MockHttpServer;
let page: Awaited<ReturnType<typeof startPageServer>>;
let browser: BrowserContext;
const profile = mkdtempSync(join(tmpdir(), 'bizmsg-chromium-'));
beforeAll(async () => {
  server = await startPackedMock();
  page = await startPageServer(await bundleForWeb('browser.mjs', ['browser']), server.url);
  browser = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await page?.close();
  await server?.close();
  rmSync(profile, { recursive: true, force: true });
});
beforeEach(() => server.mock.reset());

describe('the packed package in headless Chromium', () => {
  it("is Debian's Chromium", async () => {
    expect(await runText(executablePath, ['--version'])).toMatch(/^Chromium \d+\./);
  });

  it("bundles the browser entries, calls the mock on the page's origin, verifies webhooks async", async () => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(`${page.origin}/`);
    await tab.waitForFunction(() => 'runMatrix' in window);
    const result = await tab.evaluate(
      (apiKey) => (window as unknown as { runMatrix(a: { apiKey: string }): Promise<unknown> }).runMatrix({ apiKey }),
      server.apiKey,
    );
    expect(errors).toEqual([]);
    expect(result).toEqual(expectedScenario(ENTRIES, { sync: false }));
  });
});
