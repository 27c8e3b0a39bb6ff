import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMock } from '../../../src/mock/index.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../helpers/chromium.js';
import { startMockProcess, type MockProcess } from '../../helpers/mock-process.js';

// DNS rebinding, in a real browser: a page of another site whose name then resolves to 127.0.0.1
// (Chromium's --host-resolver-rules plays the attacker's DNS) runs as that site's origin against
// the mock. The browser sends the site's name in Host, and the mock answers none of its routes to it.

let mock: MockProcess;
let browser: Browser;

beforeAll(async () => {
  mock = await startMockProcess(['--quiet']);
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP evil.example 127.0.0.1, MAP app.localhost 127.0.0.1'],
  });
}, 30_000);
afterAll(async () => {
  await browser?.close();
  mock?.child.kill();
});

/** What a script of the page's origin gets from the mock, with the seeded key: each call's status and its body's start. */
async function fromThePage(page: Page, apiKey: string) {
  return page.evaluate(async (key) => {
    const auth = { authorization: `Bearer ${key}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const calls: Array<[string, RequestInit]> = [
      ['/api/v1/contacts', { headers: auth }],
      [
        '/api/v1/webhooks',
        { method: 'POST', headers: json, body: '{"url":"https://x.test/h","events":["message.sent"],"secret":"s"}' },
      ],
      [
        '/api/v1/messages/send',
        {
          method: 'POST',
          headers: json,
          body: '{"to":"+4915112345678","messaging_account_id":1,"type":"text","content":{"body":"hi"}}',
        },
      ],
      ['/_bizmsg/state', {}],
      ['/_bizmsg/reset', { method: 'POST' }],
      ['/', {}],
    ];
    const answers: Array<[string, number]> = [];
    for (const [path, init] of calls) answers.push([path, (await fetch(path, init)).status]);
    return answers;
  }, apiKey);
}

describe('a page that rebinds its name to 127.0.0.1, in Chromium', () => {
  it('gets 403 from every route of the mock: the dashboard, the service API with the seeded key, the control API', async () => {
    const page = await browser.newPage();
    const shown = await page.goto(`http://evil.example:${mock.port}/`);
    expect(shown!.status()).toBe(403);
    expect(await page.locator('body').innerText()).toMatch(/^Host evil\.example is not one of this mock's names/);
    expect(await fromThePage(page, mock.apiKey)).toEqual([
      ['/api/v1/contacts', 403],
      ['/api/v1/webhooks', 403],
      ['/api/v1/messages/send', 403],
      ['/_bizmsg/state', 403],
      ['/_bizmsg/reset', 403],
      ['/', 403],
    ]);
    // Nothing was sent, registered, or journaled.
    const state = await connectMock(mock.url).state();
    expect([state.messages.length, state.webhooks.length, (await connectMock(mock.url).requests()).length]).toEqual([
      0, 0, 0,
    ]);
    await page.close();
  });

  it('serves its own names in the same browser: localhost and its subdomains', async () => {
    const page = await browser.newPage();
    for (const host of ['localhost', 'app.localhost']) {
      const shown = await page.goto(`http://${host}:${mock.port}/`);
      expect([host, shown!.status()]).toEqual([host, 200]);
      await page.getByRole('heading', { level: 2 }).waitFor();
    }
    const statuses = (await fromThePage(page, mock.apiKey)).map(([path, status]) => [path, status]);
    expect(statuses).toEqual([
      ['/api/v1/contacts', 200],
      ['/api/v1/webhooks', 201],
      ['/api/v1/messages/send', 200],
      ['/_bizmsg/state', 200],
      ['/_bizmsg/reset', 204],
      ['/', 200],
    ]);
    await page.close();
  });
});
