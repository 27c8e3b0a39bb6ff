import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { connectMock, startMockHttpServer, type MockHttpServer } from 'bizmsg/mock';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { median, type BenchOptions, type Row } from './lib.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/helpers/chromium.js';
import { localServer } from './local-server.js';

// What the issue asks the page to stay responsive with.
const REQUESTS = 10_000;
const DELIVERIES = 1_000;
const CONTACTS = 100;

/** gzip -9 bytes of the page's three files (index.html, its script and its stylesheet), and their raw size. */
function pageBytes(root: string): { gzip: number; raw: number } {
  const dir = join(root, 'dist', 'dashboard');
  const files = readdirSync(dir).filter((name) => /\.(html|js|css)$/.test(name));
  const bodies = files.map((name) => readFileSync(join(dir, name)));
  return {
    gzip: bodies.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).byteLength, 0),
    raw: bodies.reduce((sum, body) => sum + body.byteLength, 0),
  };
}

/** `count` calls of `call`, `connections` at a time. */
async function inParallel(count: number, connections: number, call: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) await call(next++);
    }),
  );
}

/**
 * A mock holding 10,000 journaled requests (1,000 of them messages sent) and 1,000 delivery attempts
 * (one per inbound message, to a local endpoint answering 200), its clock moved past every status change.
 */
async function busyMock(endpoint: string): Promise<MockHttpServer> {
  const contacts = Array.from({ length: CONTACTS }, (_, i) => ({
    name: `Contact ${i + 1}`,
    phone: `+49151${String(i + 1).padStart(8, '0')}`,
  }));
  const server = await startMockHttpServer({
    variant: 2,
    plans: { enterprise: { rateLimit: 1_000_000_000 } },
    history: { requests: REQUESTS, deliveries: DELIVERIES },
    seed: { contacts },
  });
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  await inParallel(REQUESTS, 8, async (i) => {
    const send = i % 10 === 0;
    const response = await fetch(`${server.baseUrl}${send ? '/messages/send' : `/contacts?page=${(i % 5) + 1}`}`, {
      method: send ? 'POST' : 'GET',
      headers,
      ...(send
        ? {
            body: JSON.stringify({
              to: contacts[i % CONTACTS]!.phone,
              messaging_account_id: 1,
              type: 'text',
              content: { body: `Message ${i}` },
            }),
          }
        : {}),
    });
    await response.arrayBuffer();
  });
  const control = connectMock(server.baseUrl);
  await control.registerWebhook({ url: endpoint, events: ['message.received'], secret: 'whsec_bench' });
  for (let i = 0; i < DELIVERIES; i++)
    await control.receiveMessage({ from: contacts[i % CONTACTS]!.phone, body: `Reply ${i}` });
  await control.clock.advance(60_000);
  return server;
}

// Checks run in the page, each answering the time it first holds (the page's policy forbids eval:
// Playwright runs functions, not strings, there). performance.now() counts from the navigation's start.
type Check<A> = (arg: A) => number | false;

/** The live stream connected and `count` rows listed (the journal or the delivery attempts). */
const rowsShown: Check<number> = (count) =>
  document.querySelector('.live-live') !== null && document.querySelectorAll('.rows > li').length === count
    ? performance.now()
    : false;
/** The live stream connected, `count` threads listed and one of them open. */
const threadsShown: Check<number> = (count) =>
  document.querySelector('.live-live') !== null &&
  document.querySelectorAll('.threads a').length === count &&
  document.querySelector('.message') !== null
    ? performance.now()
    : false;
/** The newest row of the journal is `text`'s request. */
const newestRequest: Check<string> = (text) =>
  document.querySelector('.rows > li')?.textContent?.includes(text) === true ? Date.now() : false;
/** A thread's preview is the customer's `text`. */
const preview: Check<string> = (text) =>
  [...document.querySelectorAll('.threads .preview')].some((p) => p.textContent === `Customer: ${text}`)
    ? Date.now()
    : false;

/**
 * ms from navigation start to `check` holding, in a fresh tab each round (the assets come from the
 * browser's cache after the first, as they do for a developer reloading the page).
 */
async function firstRender(browser: BrowserContext, url: string, check: Check<number>, arg: number, rounds: number) {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    samples.push((await (await page.waitForFunction(check, arg, { polling: 'raf' })).jsonValue()) as number);
    await page.close();
  }
  return median(samples);
}

/** ms from a change made outside the page (`change`, run in Node) to `check` holding for the `i`th change's text. */
async function update(
  page: Page,
  rounds: number,
  change: (i: number) => Promise<void>,
  check: Check<string>,
  text: (i: number) => string,
) {
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const shown = page.waitForFunction(check, text(i), { polling: 'raf', timeout: 10_000 });
    const started = Date.now();
    await change(i);
    samples.push(((await (await shown).jsonValue()) as number) - started);
    // The stream batches activity every 100 ms: the next change starts after this one's batch.
    await page.waitForTimeout(250);
  }
  return median(samples);
}

/** Figure 10: the mock's dashboard in Chromium, with a busy mock: what it loads, first render, live update. */
export async function measureDashboard({ quick, root }: BenchOptions): Promise<Row[]> {
  const rounds = quick ? 3 : 11;
  const bytes = pageBytes(root);
  const endpoint = await localServer((_, res) => res.end('ok'));
  const server = await busyMock(`${endpoint.origin}/hook`);
  const profile = mkdtempSync(join(tmpdir(), 'bizmsg-bench-dashboard-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport: { width: 1280, height: 800 },
  });
  try {
    const view = (name: string) => `${server.origin}/#/${name}`;
    const requests = await firstRender(browser, view('requests'), rowsShown, 100, rounds);
    const deliveries = await firstRender(browser, view('webhooks'), rowsShown, 100, rounds);
    const conversations = await firstRender(browser, view('conversations'), threadsShown, CONTACTS, rounds);
    const page = await browser.newPage();
    await page.goto(view('requests'));
    await page.waitForFunction(rowsShown, 100);
    const headers = { authorization: `Bearer ${server.apiKey}` };
    const journaled = await update(
      page,
      rounds,
      async (i) => void (await (await fetch(`${server.baseUrl}/contacts/${i + 1}`, { headers })).arrayBuffer()),
      newestRequest,
      (i) => `GET /contacts/${i + 1} `,
    );
    await page.goto(view('conversations'));
    await page.waitForFunction(threadsShown, CONTACTS);
    const control = connectMock(server.baseUrl);
    const inbound = await update(
      page,
      rounds,
      async (i) => void (await control.receiveMessage({ from: '+4915100000001', body: `Live ${i}` })),
      preview,
      (i) => `Live ${i}`,
    );
    const busy = `${REQUESTS.toLocaleString('en-US')} requests and ${DELIVERIES.toLocaleString('en-US')} deliveries kept`;
    const row = (subject: string, value: number, target?: Row['target']): Row => ({
      figure: '10',
      subject,
      value: Math.round(value),
      unit: 'ms',
      ...(target === undefined ? {} : { target }),
    });
    return [
      {
        figure: '10',
        subject: 'dashboard, bytes loaded (index.html, script and stylesheet, gzip)',
        value: Math.round((bytes.gzip / 1024) * 100) / 100,
        unit: 'KB',
        note: `${Math.round((bytes.raw / 1024) * 10) / 10} KB unzipped`,
      },
      row(`dashboard first render, requests view (newest 100), ${busy}`, requests),
      row('dashboard first render, delivery attempts (newest 100), same mock', deliveries),
      row(`dashboard first render, conversations (${CONTACTS} threads, 2,000 messages), same mock`, conversations),
      row(
        'dashboard live update, an API request to its row in the journal (the stream sends every 100 ms)',
        journaled,
        {
          text: '<= 2,000 ms',
          met: journaled <= 2000,
        },
      ),
      row('dashboard live update, an inbound message to its thread (the stream sends every 100 ms)', inbound, {
        text: '<= 2,000 ms',
        met: inbound <= 2000,
      }),
    ];
  } finally {
    await browser.close();
    await server.close();
    await endpoint.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
