import { readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMock } from '../../../src/mock/index.js';
import { startMockProcess, type MockProcess } from '../../helpers/mock-process.js';

// The memory a running bizmsg-mock holds under the floods a page of another site, anyone with the
// seeded key or a hostile receiver can send it, read from /proc as the process's resident set (RSS).
// What a flood leaves is read once V8 has given back its garbage (its memory reducer runs some
// seconds after the allocations stop): each bound is far below what the mock would hold if it kept
// what it was sent, so a bound that holds says it keeps no more than its cuts. The figures are
// printed; BIZMSG_FLOOD_SECONDS=30 runs the floods of deliveries for as long (default 8 s).

const FLOOD_MS = Number(process.env.BIZMSG_FLOOD_SECONDS ?? 8) * 1000;
const MB = 1_048_576;

const running: MockProcess[] = [];
const servers: Server[] = [];
afterEach(() => {
  for (const mock of running.splice(0)) mock.child.kill('SIGKILL');
  for (const server of servers.splice(0)) server.closeAllConnections();
});

async function start() {
  const mock = await startMockProcess(['--quiet']);
  running.push(mock);
  return mock;
}

/** The resident set of a process, in MB (Linux). */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]!;
  return Number(kb) / 1024;
}

/** The RSS once it fell below `bound`, or after 20 s (V8 gives garbage back a few seconds after a burst). */
async function settledRss(pid: number, bound: number): Promise<number> {
  const deadline = Date.now() + 20_000;
  let rss = rssMb(pid);
  while (rss >= bound && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    rss = rssMb(pid);
  }
  return rss;
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

/** A receiver on a free loopback port. */
async function startReceiver(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

/**
 * Samples the mock's RSS and asks for its health every 500 ms for `FLOOD_MS` while `flood` runs:
 * the health must answer every time. Then SIGTERM must stop it with exit code 0.
 */
async function survive(mock: MockProcess, what: string, bound: number, flooded: () => number): Promise<void> {
  const origin = new URL(mock.url).origin;
  const atStart = rssMb(mock.child.pid!);
  let peak = atStart;
  let slowest = 0;
  const until = Date.now() + FLOOD_MS;
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    peak = Math.max(peak, rssMb(mock.child.pid!));
    const asked = performance.now();
    const health = await fetch(`${origin}/_bizmsg/health`, { signal: AbortSignal.timeout(10_000) });
    expect(health.status).toBe(200);
    slowest = Math.max(slowest, performance.now() - asked);
  }
  console.log(
    `${FLOOD_MS / 1000} s of ${what} (${flooded()} deliveries): RSS ${atStart.toFixed(0)} MB at start, ` +
      `peak ${peak.toFixed(0)} MB (bound ${bound} MB); health answered in at most ${slowest.toFixed(0)} ms`,
  );
  expect(peak).toBeLessThan(bound);
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
    const before = rssMb(mock.child.pid!);
    const body = JSON.stringify({ name: 'x'.repeat(1_000_000) });
    await inParallel(1000, 8, async () => {
      const answer = await fetch(`${mock.url}/contacts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      await answer.arrayBuffer();
    });
    const after = rssMb(mock.child.pid!);
    const settled = await settledRss(mock.child.pid!, 200);
    console.log(
      `1,000 x 1 MB requests: RSS ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB right after, ${settled.toFixed(0)} MB settled (bound 200 MB)`,
    );
    // Kept whole, the bodies alone would be 1,000 MB.
    expect(settled).toBeLessThan(200);
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
    const before = rssMb(mock.child.pid!);
    let size = 0;
    await inParallel(40, 2, async () => {
      const page = await fetch(`${mock.url}/contacts?per_page=100`, { headers });
      size = (await page.arrayBuffer()).byteLength;
    });
    const after = rssMb(mock.child.pid!);
    const settled = await settledRss(mock.child.pid!, 200);
    console.log(
      `40 reads of ${(size / MB).toFixed(0)} MB: RSS ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB right after, ${settled.toFixed(0)} MB settled (bound 200 MB)`,
    );
    // Kept whole, the answers alone would be 40 x 24 MB, near 1 GB.
    expect(size).toBeGreaterThan(24_000_000);
    expect(settled).toBeLessThan(200);
    const [read] = await connectMock(mock.url).requests({ method: 'GET', limit: 1 });
    expect((read!.response!.body as string).length).toBe(16_385);
  }, 120_000);

  it("stays up under the issue's loop (each delivery asks for two more, and waits for them), and stops on SIGTERM", async () => {
    const mock = await start();
    const control = connectMock(mock.url);
    const origin = new URL(mock.url).origin;
    let deliveries = 0;
    // The loop a webhook on the mock's own redeliver route made, through a receiver that drops the
    // delivery's mark (as any local program may): each delivery asks for two more and waits for them.
    const url = await startReceiver((req, res) => {
      deliveries += 1;
      req.resume();
      const again = () =>
        fetch(`${origin}/_bizmsg/deliveries/1/redeliver`, { method: 'POST' }).then(
          (answer) => answer.arrayBuffer(),
          () => undefined,
        );
      void Promise.all([again(), again()]).then(() => res.end('ok'));
    });
    await control.registerWebhook({ url, events: ['contact.created'], secret: 's' });
    // Two sends, as in the issue: the first records attempt 1 (its redeliveries find none yet), the second loops.
    await control.emit('contact.created');
    void control.emit('contact.created').catch(() => undefined);
    await survive(mock, "the issue's redeliver loop", 300, () => deliveries);
    expect(deliveries).toBeGreaterThan(2);
  }, 120_000);

  it('stays up, bounded, under a flood of deliveries (each asks for two more at once), and stops on SIGTERM', async () => {
    const mock = await start();
    const control = connectMock(mock.url);
    const origin = new URL(mock.url).origin;
    let deliveries = 0;
    const url = await startReceiver((req, res) => {
      deliveries += 1;
      req.resume();
      res.end('ok');
      for (let i = 0; i < 2; i++)
        void fetch(`${origin}/_bizmsg/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"event":"contact.created"}',
        }).then(
          (answer) => answer.arrayBuffer(),
          () => undefined,
        );
    });
    await control.registerWebhook({ url, events: ['contact.created'], secret: 's' });
    void control.emit('contact.created').catch(() => undefined);
    await survive(mock, 'a flood of deliveries', 300, () => deliveries);
    expect(deliveries).toBeGreaterThan(100);
  }, 120_000);
});
