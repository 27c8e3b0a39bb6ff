// The dashboard with hostile long values (an outside tester's report): a 5,000-character name, a long
// tag, e-mail, message body, assignee, campaign, webhook URL and request path, all without a space.
// No view may be wider than the window, the composer's Send button stays on screen, and every table
// column stays readable, in a 1280 px window and on a phone.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMock } from '../../../src/mock/index.js';
import { startTestServer } from '../../helpers/http-server.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../helpers/chromium.js';
import { startMockProcess, type MockProcess } from '../../helpers/mock-process.js';

// LAYOUT_SHOTS=<dir> keeps a full-page screenshot of every view checked, to look at.
const SHOTS = process.env.LAYOUT_SHOTS;
const LONG = 'A'.repeat(5000);
const PHONE = '+4915100000003';
const TAG = 't'.repeat(300);
const EMAIL = `${'e'.repeat(300)}@example.test`;
const BODY = 'M'.repeat(3000);
const HOOK_PATH = `/hook/${'w'.repeat(2000)}`;

const scratch = mkdtempSync(join(tmpdir(), 'bizmsg-dashboard-long-'));
let receiver: Awaited<ReturnType<typeof startTestServer>>;
let mock: MockProcess;
let origin: string;
let browser: BrowserContext;

/** The app under test calls the service (Variant 2); a refusal fails the test here. */
async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${mock.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.status;
}

beforeAll(async () => {
  // The long URL's deliveries fail, so that a retry of it waits for the clock.
  receiver = await startTestServer((request, res) => {
    res.statusCode = request.path === HOOK_PATH ? 500 : 200;
    res.end('ok');
  });
  const seed = join(scratch, 'seed.json');
  const contacts = [{ name: LONG, phone: PHONE, email: EMAIL, tags: [TAG, 'vip'] }];
  writeFileSync(seed, JSON.stringify({ variant: 2, seed: { contacts } }));
  mock = await startMockProcess(['--seed-file', seed, '--quiet']);
  origin = new URL(mock.url).origin;
  const control = connectMock(mock.url);
  const hook = { url: `${receiver.origin}${HOOK_PATH}`, events: ['message.received'], secret: 'whsec_long' };
  expect(await api('POST', '/webhooks', hook)).toBe(201);
  const text = { to: PHONE, messaging_account_id: 1, type: 'text', content: { body: BODY } };
  expect(await api('POST', '/messages/send', text)).toBe(200);
  await control.receiveMessage({ from: PHONE, body: BODY });
  const [conversation] = (await control.state()).conversations;
  const assign = await fetch(`${origin}/_bizmsg/conversations/${conversation!.id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ assigned_to: 'S'.repeat(2000) }),
  });
  expect(assign.status).toBe(200);
  const campaign = { name: 'C'.repeat(2000), messaging_account_id: 1, template_name: 'promo' };
  expect(await api('POST', '/campaigns', { ...campaign, segment_id: 2, scheduled_at: '2030-11-27T09:00:00Z' })).toBe(
    201,
  );
  expect(await api('GET', `/contacts/${'9'.repeat(3000)}`)).toBe(404);
  browser = await chromium.launchPersistentContext(join(scratch, 'profile'), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
}, 30_000);
afterAll(async () => {
  await browser?.close();
  mock?.child.kill();
  await receiver?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Opens a view, once live, with its first row opened where rows open. */
async function open(tab: Page, view: string) {
  await tab.goto(`${origin}/#/${view}`);
  await tab.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  await tab.getByRole('heading', { level: 2 }).waitFor();
  if (view === 'webhooks' || view === 'requests') {
    const row = tab.locator('.rows > li').first();
    await row.getByRole('button', { expanded: false }).click();
    await row.locator('pre').first().waitFor();
  }
  if (view === 'clock') await tab.getByRole('table').waitFor();
}

/**
 * What overflows the window: the page's width beyond it, each scroll box that scrolls sideways (but a
 * table's box where `tables` may), and each table cell too narrow to read: narrower than its longest
 * word when that is up to 12 em (a phone number, a time), or than 6 em (a name one letter a line).
 */
function overflows(tab: Page, tables: 'fit' | 'may scroll'): Promise<string[]> {
  return tab.evaluate((tables) => {
    const found: string[] = [];
    const { scrollWidth } = document.documentElement;
    if (scrollWidth > window.innerWidth) found.push(`page ${scrollWidth} px wide in ${window.innerWidth}`);
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const { overflowX } = getComputedStyle(element);
      const scrolls = (overflowX === 'auto' || overflowX === 'scroll') && element.scrollWidth > element.clientWidth + 1;
      if (scrolls && !(tables === 'may scroll' && element.matches('.wide')))
        found.push(`${element.tagName}.${element.className} scrolls sideways`);
    }
    for (const cell of document.querySelectorAll('td')) {
      const style = getComputedStyle(cell);
      const width = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const probe = document.createElement('span');
      probe.style.cssText = 'position:absolute;white-space:nowrap';
      let word = 0;
      for (const text of cell.textContent.split(/\s+/)) {
        probe.textContent = text;
        cell.append(probe);
        word = Math.max(word, probe.getBoundingClientRect().width);
        probe.remove();
      }
      const em = parseFloat(style.fontSize);
      if (width + 0.5 < (word <= 12 * em ? word : 6 * em))
        found.push(`cell ${cell.cellIndex} of "${cell.textContent.slice(0, 20)}" ${width} px wide`);
    }
    return found;
  }, tables);
}

const VIEWS = [`conversations/${PHONE.slice(1)}`, 'contacts', 'campaigns', 'webhooks', 'requests', 'clock', 'faults'];

describe('the dashboard with long values without a space', () => {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const)
    it(`keeps every view within a ${width} px window, the Send button on screen and every column readable`, async () => {
      const tab = await browser.newPage();
      try {
        await tab.setViewportSize({ width, height });
        const found: string[] = [];
        for (const view of VIEWS) {
          await open(tab, view);
          found.push(
            ...(await overflows(tab, width < 800 ? 'may scroll' : 'fit')).map((problem) => `${view}: ${problem}`),
          );
          if (SHOTS !== undefined) {
            mkdirSync(SHOTS, { recursive: true });
            // The window's width, and the page down to 4,000 px.
            const tall = Math.min(4000, await tab.evaluate(() => document.documentElement.scrollHeight));
            const path = join(SHOTS, `${view.split('/')[0]}-${width}.png`);
            await tab.screenshot({ path, fullPage: true, clip: { x: 0, y: 0, width, height: tall } });
          }
          if (view.startsWith('conversations')) {
            const send = (await tab.getByRole('button', { name: 'Send' }).boundingBox())!;
            if (send.x < 0 || send.x + send.width > width)
              found.push(`${view}: the Send button at ${send.x},${send.y} is off the ${width}x${height} screen`);
          }
          // The phone number's cell is one `overflows` reads: it must be as wide as the number.
          if (view === 'contacts') await tab.getByRole('cell', { name: PHONE, exact: true }).waitFor();
        }
        expect(found).toEqual([]);
      } finally {
        await tab.close();
      }
    }, 60_000);
});
