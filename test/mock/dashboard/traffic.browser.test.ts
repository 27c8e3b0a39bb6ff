import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProxy, startMockReplay, type MockProxy } from '../../../src/mock/index.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../helpers/chromium.js';
import { startOtherService, type OtherService } from '../../helpers/proxied-service.js';

// UPDATE_SCREENSHOTS=1 writes docs/dashboard/drift.png from this run.
const SCREENSHOTS = new URL('../../../docs/dashboard/', import.meta.url).pathname;
const KEY = 'sk_live_canary_0123456789abcdef';
const scratch = mkdtempSync(join(tmpdir(), 'bizmsg-traffic-page-'));
let service: OtherService;
let proxy: MockProxy;
let browser: BrowserContext;

beforeAll(async () => {
  service = await startOtherService();
  proxy = await startMockProxy({
    target: service.baseUrl,
    record: join(scratch, 'recording'),
    redactionKey: 'page-test-redaction-key',
  });
  browser = await chromium.launchPersistentContext(join(scratch, 'profile'), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport: { width: 1280, height: 800 },
  });
}, 30_000);
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await service?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function call(path: string) {
  await fetch(`${proxy.baseUrl}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
}

describe('the dashboard of a proxy and of a replay', () => {
  it('shows the drift report live, and only the views a proxy has, without a console error', async () => {
    const tab = await browser.newPage();
    const problems: string[] = [];
    tab.on('pageerror', (error) => problems.push(error.message));
    tab.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    await tab.goto(`${proxy.origin}/#/conversations`);
    await tab.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    expect(await tab.getByRole('navigation', { name: 'Views' }).getByRole('link').allInnerTexts()).toEqual([
      'Requests',
      'Drift',
    ]);
    await expect.poll(() => tab.getByRole('heading', { level: 1 }).innerText()).toBe('bizmsg proxy');
    await tab.getByRole('link', { name: 'Drift' }).click();
    await tab.getByText('No difference from the contract so far.').waitFor();
    await call('/contacts/7');
    await call('/account/me');
    await call('/webhooks');
    await call('/campaigns');
    // The last call's finding shows live (the stream reports each exchange once it is checked).
    await tab.getByRole('cell', { name: 'FEATURE_NOT_ENABLED' }).waitFor();
    const text = await tab.getByRole('table').innerText();
    expect(text).toContain('GET /contacts/{id}');
    expect(text).toContain('data.tags');
    expect(text).toContain('X-RateLimit-Reset');
    expect(text).toContain('FEATURE_NOT_ENABLED');
    expect(await tab.locator('.mock-name').innerText()).toBe(`Variant 2 · ${proxy.baseUrl} → ${service.baseUrl}`);
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await tab.screenshot({ path: join(scratch, 'drift.png') });
      copyFileSync(join(scratch, 'drift.png'), join(SCREENSHOTS, 'drift.png'));
    }
    await tab.getByRole('link', { name: 'Requests' }).click();
    await tab.getByRole('button', { name: /GET \/campaigns → 403 FEATURE_NOT_ENABLED/ }).waitFor();
    await tab.close();
    expect(problems).toEqual([]);
  });

  it("shows a replay's journal, its misses included", async () => {
    await proxy.settled();
    const replay = await startMockReplay({
      recording: join(scratch, 'recording'),
      redactionKey: 'page-test-redaction-key',
    });
    try {
      const tab = await browser.newPage();
      const problems: string[] = [];
      tab.on('pageerror', (error) => problems.push(error.message));
      await tab.goto(`${replay.origin}/`);
      await tab.getByRole('status').filter({ hasText: 'Live' }).waitFor();
      expect(await tab.getByRole('navigation', { name: 'Views' }).getByRole('link').allInnerTexts()).toEqual([
        'Requests',
      ]);
      await fetch(`${replay.baseUrl}/contacts/99`, { headers: { authorization: `Bearer ${KEY}` } });
      await tab.getByRole('button', { name: /GET \/contacts\/99 → 501 NO_RECORDING/ }).waitFor();
      await tab.close();
      expect(problems).toEqual([]);
    } finally {
      await replay.close();
    }
  });
});
