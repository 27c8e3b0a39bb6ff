import { mkdtempSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMock } from '../../../src/mock/index.js';
import { collected as collectedBy, GC_ON_SIGNAL, rssMb as rssOf, type Collected } from '../../helpers/memory-report.js';
import { BIN, useMockProcesses, type MockProcess } from '../../helpers/mock-process.js';

// The memory a running bizmsg-mock holds under the floods a page of another site, anyone with the
// seeded key or a hostile receiver can send it: the resident set (RSS) of the bin, read from /proc,
// and what its JavaScript holds (V8's heap in use and the buffers outside it), both after a full
// garbage collection (the bin runs with --expose-gc and test/helpers/gc-on-signal.cjs, and gets
// SIGUSR2): V8 lets garbage pile up for a while, and the C allocator keeps some of what was freed,
// so RSS alone says more about them than about the mock (every figure is printed). Each bound is
// far below what the mock would hold if it kept what it was sent. BIZMSG_FLOOD_SECONDS=30 runs the
// floods of deliveries for as long (default 8 s).
//
// The bounds on what the JavaScript holds are the tight ones. RSS also counts what the C allocator
// keeps of what was freed and, under load, more of a flood in flight at the moment it is read:
// 75 to 207 MB were measured, so its bound is 400 MB, still far below the 950 MB to 1 GB that
// keeping a flood would take.
const RSS_BOUND = 400;
/** How often a flood is sampled. */
const SAMPLE_EVERY_MS = 500;

const FLOOD_MS = Number(process.env.BIZMSG_FLOOD_SECONDS ?? 8) * 1000;
const MB = 1_048_576;
const reports = mkdtempSync(join(tmpdir(), 'bizmsg-memory-'));

const startProcess = useMockProcesses();
const servers: Server[] = [];
let started = 0;
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A running bin, and the file its memory is reported to. */
interface Measured extends MockProcess {
  readonly report: string;
}

async function start(): Promise<Measured> {
  const report = join(reports, `${(started += 1)}.json`);
  const command = [process.execPath, '--expose-gc', '--require', GC_ON_SIGNAL, BIN];
  const mock = await startProcess(['--quiet'], { command, env: { ...process.env, BIZMSG_GC_REPORT: report } });
  return { ...mock, report };
}

/** The resident set of the bin, in MB (Linux). */
const rssMb = (mock: MockProcess): number => rssOf(mock.child);

/** Once the bin collected its garbage: its RSS, and what its JavaScript holds (heap in use and buffers), in MB. */
const collected = (mock: Measured): Promise<Collected> => collectedBy(mock.child, mock.report);

/** A figure as the lines print it. */
function mb(value: number): string {
  return `${value.toFixed(0)} MB`;
}

/** Runs `task` for each of `count` items, `width` at a time. */
async function inParallel(count: number, width: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** A receiver on a free loopback port, registered with the mock for contact.created. */
async function receiver(mock: Measured, listener: RequestListener): Promise<void> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  await connectMock(mock.url).registerWebhook({ url, events: ['contact.created'], secret: 's' });
}

/** Asks the mock to emit one contact.created (to every endpoint that takes it); never rejects. */
function emit(mock: MockProcess): Promise<unknown> {
  return fetch(`${new URL(mock.url).origin}/_bizmsg/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"event":"contact.created"}',
  }).then(
    (answer) => answer.arrayBuffer(),
    () => undefined,
  );
}

/**
 * For `FLOOD_MS` (and while `more()`), every SAMPLE_EVERY_MS: the mock's RSS, what it holds once it collected
 * its garbage, and its health, which must answer every time. What its JavaScript holds stays under
 * `bound` MB, its RSS then under RSS_BOUND.
 */
async function survive(
  mock: Measured,
  what: string,
  delivered: () => number,
  bound: number,
  more: () => boolean = () => false,
) {
  const origin = new URL(mock.url).origin;
  const atStart = await collected(mock);
  let peak = atStart.rss;
  const most = { ...atStart };
  let slowest = 0;
  const started = Date.now();
  const until = started + FLOOD_MS;
  while (Date.now() < until || more()) {
    // Not a wait for anything: the flood runs between two samples, each a full collection.
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
    peak = Math.max(peak, rssMb(mock));
    const now = await collected(mock);
    most.rss = Math.max(most.rss, now.rss);
    most.held = Math.max(most.held, now.held);
    const asked = performance.now();
    const health = await fetch(`${origin}/_bizmsg/health`, { signal: AbortSignal.timeout(10_000) });
    expect(health.status).toBe(200);
    slowest = Math.max(slowest, performance.now() - asked);
  }
  console.log(
    `${((Date.now() - started) / 1000).toFixed(0)} s of ${what} (${delivered()} deliveries): RSS ${mb(atStart.rss)} at start, peak ${mb(peak)}, ` +
      `at most ${mb(most.rss)} collected (bound ${RSS_BOUND} MB), JavaScript holding at most ${mb(most.held)} (bound ${bound} MB); ` +
      `health answered in at most ${slowest.toFixed(0)} ms`,
  );
  expect(most.held).toBeLessThan(bound);
  expect(most.rss).toBeLessThan(RSS_BOUND);
}

/** The mock's state once its first webhook is disabled, or after 60 s of waiting for that. */
async function disabledWebhook(url: string) {
  const control = connectMock(url);
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    const state = await control.state();
    if (state.webhooks[0]?.status === 'disabled') return state;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return control.state();
}

/** SIGTERM stops the mock, with exit code 0, within 5 s. */
async function stops(mock: MockProcess): Promise<void> {
  for (const server of servers) server.closeAllConnections();
  mock.child.kill('SIGTERM');
  const exited = await Promise.race([
    mock.exited(),
    new Promise((resolve) => setTimeout(() => resolve('still running after 5 s'), 5000)),
  ]);
  expect(exited).toBe(0);
}

describe('bizmsg-mock under floods: memory stays bounded', () => {
  it('keeps at most its cut of 1,000 requests of 1 MB each (no key needed: any page can send them)', async () => {
    const mock = await start();
    const before = await collected(mock);
    const body = JSON.stringify({ name: 'x'.repeat(1_000_000) });
    await inParallel(1000, 8, async () => {
      const answer = await fetch(`${mock.url}/contacts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      await answer.arrayBuffer();
    });
    const after = rssMb(mock);
    const held = await collected(mock);
    console.log(
      `1,000 x 1 MB requests: RSS ${mb(before.rss)} before, ${mb(after)} right after, ${mb(held.rss)} collected (bound ${RSS_BOUND} MB); ` +
        `JavaScript holding ${mb(before.held)} before, ${mb(held.held)} after (bound 64 MB)`,
    );
    // Kept whole, the bodies alone would be 1,000 MB; their cuts, 64 MB, but the journal holds 32 MiB at most.
    expect(held.held).toBeLessThan(64);
    expect(held.rss).toBeLessThan(RSS_BOUND);
    const journal = await connectMock(mock.url).requests();
    expect(journal.length).toBeLessThan(1000);
    expect(journal.at(-1)).toMatchObject({ id: 1000, method: 'POST', status: 401, body: expect.stringMatching(/…$/) });
    expect((journal.at(-1)!.body as string).length).toBe(65_537);
  }, 120_000);

  it('keeps at most its cut of the answers to 40 reads of big contacts', async () => {
    const mock = await start();
    const note = 'y'.repeat(250_000);
    const headers = { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' };
    await inParallel(100, 4, async (i) => {
      const phone = `+49151${String(10_000_000 + i)}`;
      const body = JSON.stringify({ name: `Contact ${i}`, phone, custom_fields: { note } });
      const created = await fetch(`${mock.url}/contacts`, { method: 'POST', headers, body });
      expect(created.status).toBe(201);
    });
    const before = await collected(mock);
    let size = 0;
    await inParallel(40, 2, async () => {
      const page = await fetch(`${mock.url}/contacts?per_page=100`, { headers });
      size = (await page.arrayBuffer()).byteLength;
    });
    const after = rssMb(mock);
    const held = await collected(mock);
    console.log(
      `40 reads of ${mb(size / MB)}: RSS ${mb(before.rss)} before (the contacts held), ${mb(after)} right after, ${mb(held.rss)} collected (bound ${RSS_BOUND} MB); ` +
        `JavaScript holding ${mb(before.held)} before, ${mb(held.held)} after (bound: 8 MB more)`,
    );
    // Kept whole, the answers alone would be 40 x 24 MB, near 1 GB; their cuts are 40 x 16 KiB.
    expect(size).toBeGreaterThan(24_000_000);
    expect(held.held).toBeLessThan(before.held + 8);
    expect(held.rss).toBeLessThan(RSS_BOUND);
    const [read] = await connectMock(mock.url).requests({ method: 'GET', limit: 1 });
    expect((read!.response!.body as string).length).toBe(16_385);
  }, 120_000);

  it("stays up under the issue's loop (each delivery asks for two more, and waits for them), and stops on SIGTERM", async () => {
    const mock = await start();
    const origin = new URL(mock.url).origin;
    let deliveries = 0;
    // The loop a webhook on the mock's own redeliver route made, through a receiver that drops the
    // delivery's mark (as any local program may): each delivery asks for two more and waits for them.
    await receiver(mock, (req, res) => {
      deliveries += 1;
      req.resume();
      const again = () =>
        fetch(`${origin}/_bizmsg/deliveries/1/redeliver`, { method: 'POST' }).then(
          (answer) => answer.arrayBuffer(),
          () => undefined,
        );
      void Promise.all([again(), again()]).then(() => res.end('ok'));
    });
    // Two sends, as in the issue: the first records attempt 1 (its redeliveries find none yet), the second loops.
    await emit(mock);
    void emit(mock);
    await survive(mock, "the issue's redeliver loop", () => deliveries, 64);
    expect(deliveries).toBeGreaterThan(2);
    await stops(mock);
  }, 120_000);

  it('stays up, bounded, under a flood of deliveries as fast as it sends them, and stops on SIGTERM', async () => {
    const mock = await start();
    // 64 chains: each delivery asks for the next one at once.
    const delivered = await flood(mock, 1);
    for (let i = 0; i < 63; i++) void emit(mock);
    await survive(mock, 'a flood of deliveries', delivered, 64);
    expect(delivered()).toBeGreaterThan(500);
    await stops(mock);
  }, 120_000);

  it('stays up, bounded, under a fork bomb of deliveries (each asks for two more), disabling the endpoint', async () => {
    const mock = await start();
    const delivered = await flood(mock, 2);
    await survive(mock, 'a fork bomb of deliveries', delivered, 64);
    // Past 1,000 waiting, deliveries are not sent; their retries pile up to 1,000, and the endpoint is
    // disabled (on a loaded machine the pile may take longer than the flood's measured seconds).
    const { webhooks, emails } = await disabledWebhook(mock.url);
    expect([webhooks[0]!.status, emails[0]?.body]).toEqual([
      'disabled',
      expect.stringMatching(/until 1000 retries were waiting/),
    ]);
    await stops(mock);
  }, 120_000);
});

describe('bizmsg-mock under big events to endpoints that refuse them: retries stay bounded', () => {
  it('holds at most its bound of bodies waiting for a retry, with the seeded key alone, and says which endpoint it disabled', async () => {
    const mock = await start();
    const api = (method: string, path: string, body: unknown) =>
      fetch(`${mock.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // Two endpoints on a port nothing listens on: every delivery fails at once and waits for its retry.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    for (const hook of ['one', 'two']) {
      const url = `http://127.0.0.1:${port}/${hook}`;
      expect((await api('POST', '/webhooks', { url, events: ['contact.updated'], secret: 's' })).status).toBe(201);
    }
    const created = await api('POST', '/contacts', { name: 'Big', phone: '+4915112345678' });
    const { data: contact } = (await created.json()) as { data: { id: number } };
    // Each update is a contact.updated event of ~900 KB to each endpoint, each delivery refused.
    const note = 'z'.repeat(900_000);
    let updates = 0;
    let flooding = true;
    // Four at a time: the seeded key's plan allows 2,000 a minute, more than the mock answers these.
    const flood = Promise.all(
      Array.from({ length: 4 }, async (_, lane) => {
        for (let i = lane; flooding; i += 4) {
          const answer = await api('PUT', `/contacts/${contact.id}`, { custom_fields: { note: `${note}${i}` } });
          if (answer.status === 200) updates += 1;
          await answer.arrayBuffer();
        }
      }),
    );
    try {
      // Kept whole, 150 updates leave 300 retries of ~0.9 MB waiting: near 270 MB (947 MB in the issue).
      const what = 'updates of a 900 KB contact to two refusing endpoints';
      await survive(
        mock,
        what,
        () => updates * 2,
        96,
        () => updates < 150,
      );
    } finally {
      flooding = false;
      await flood;
    }
    const { webhooks, emails } = await connectMock(mock.url).state({ deliveries: 0 });
    // Past the bound, the endpoint holding the most retries is disabled (its retries dropped), and the owner told.
    expect(webhooks.map((w) => w.status)).toContain('disabled');
    expect(emails[0]?.body).toMatch(
      /^Deliveries to http:\/\/127\.0\.0\.1:\d+\/(one|two) kept failing until their retries held /,
    );
    await stops(mock);
  }, 120_000);
});

/**
 * A receiver whose every delivery asks the mock for `asks` more at once, and the first delivery
 * asked for; gives the count of deliveries so far.
 */
async function flood(mock: Measured, asks: number): Promise<() => number> {
  let deliveries = 0;
  await receiver(mock, (req, res) => {
    deliveries += 1;
    req.resume();
    res.end('ok');
    for (let i = 0; i < asks; i++) void emit(mock);
  });
  void emit(mock);
  return () => deliveries;
}
