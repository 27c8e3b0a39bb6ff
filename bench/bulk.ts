// Figure 12: bulk sends. sendBulk against a plain loop of messages.send at the same concurrency
// (no rate limit, both journals), its heap on 100,000 streamed recipients, the share of a limited
// budget it uses, and BullMQ workers on one key: 1 process against 4.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Variant2Client } from 'bizmsg';
import { bulkReport, enqueueBulk, fileJournal, memoryJournal, sendBulk, type BulkJournal } from 'bizmsg/bulk';
import { startMockHttpServer } from 'bizmsg/mock';
import { hasRedisServer, startRedisServer } from '../test/helpers/redis-server.js';
import { alternate, ratio, type BenchOptions, type Row } from './lib.js';

const CONCURRENCY = 16;
const LIMIT = 100;
const WINDOW_MS = 1000;
const KEY = 'bm_live_bench_bulk';

function* phones(n: number) {
  for (let i = 0; i < n; i++) yield `+49151${10_000_000 + i}`;
}
const text = (to: string) => ({ to, messaging_account_id: 1, type: 'text' as const, content: { body: 'Hi' } });

/** Starts a node script that prints {"url"} once listening; resolves with the url and the child. */
async function startScript(
  file: string,
  args: string[] = [],
  flags: string[] = [],
): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, [...flags, fileURLToPath(new URL(file, import.meta.url)), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
  return { child, line };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Recipients per second of a plain loop: CONCURRENCY callers sharing one list. */
async function plainLoop(baseUrl: string, n: number): Promise<number> {
  const client = new Variant2Client({ apiKey: KEY, baseUrl, rateLimit: false });
  const list = phones(n);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let next = list.next(); !next.done; next = list.next()) await client.messages.send(text(next.value));
    }),
  );
  return n / ((performance.now() - started) / 1000);
}

/** Recipients per second of sendBulk. */
async function bulk(baseUrl: string, n: number, journal: BulkJournal): Promise<number> {
  const client = new Variant2Client({ apiKey: KEY, baseUrl, rateLimit: false });
  const started = performance.now();
  const report = await sendBulk(client, {
    id: `bench-${n}`,
    recipients: phones(n),
    message: text,
    journal,
    concurrency: CONCURRENCY,
  });
  if (report.sent !== n) throw new Error(`sendBulk sent ${report.sent} of ${n}`);
  return n / ((performance.now() - started) / 1000);
}

/** The live heap of sendBulk (fileJournal) over `n` streamed recipients, in a process of its own limited to 100 MB. */
async function heapOfBulk(baseUrl: string, n: number, journal: string): Promise<number> {
  const args = JSON.stringify({ baseUrl, journal, recipients: n, concurrency: CONCURRENCY });
  const { child, line } = await startScript(
    './probes/bulk-heap.mjs',
    [args],
    ['--expose-gc', '--max-old-space-size=100'],
  );
  if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  const { peakMb, sent } = JSON.parse(line) as { peakMb: number; sent: number };
  if (sent !== n) throw new Error(`the heap probe sent ${sent} of ${n}`);
  return peakMb;
}

/** Throughput against a local server with no limit: sendBulk (both journals) vs the plain loop. */
async function throughput(n: number, rounds: number): Promise<Row[]> {
  const { child, line } = await startScript('./servers/messages.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'bizmsg-bench-bulk-'));
  const { url } = JSON.parse(line) as { url: string };
  let journals = 0;
  try {
    const result = await alternate(rounds, {
      loop: () => plainLoop(url, n),
      memory: () => bulk(url, n, memoryJournal()),
      file: () => bulk(url, n, fileJournal(join(dir, `journal-${(journals += 1)}`))),
    });
    const heapMb = await heapOfBulk(url, n, join(dir, 'journal-heap'));
    const label = `${n.toLocaleString('en-US')} recipients, concurrency ${CONCURRENCY}, local server, no limit`;
    const row = (subject: string, value: number): Row => {
      const r = ratio(value, result.loop);
      return {
        figure: '12',
        subject: `${label}: sendBulk, ${subject}`,
        value,
        unit: 'recipients/s',
        baseline: { name: 'plain loop of messages.send', value: result.loop, ratio: r },
        target: { text: '>= 0.8x the plain loop', met: r >= 0.8 },
      };
    };
    return [
      row('memoryJournal', result.memory),
      row('fileJournal', result.file),
      {
        figure: '12',
        subject: `${label}: live heap of sendBulk with fileJournal (streamed input; own process, after GC)`,
        value: heapMb,
        unit: 'MB',
        target: { text: '< 100 MB', met: heapMb < 100 },
      },
    ];
  } finally {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A mock whose key is limited to LIMIT per WINDOW_MS, and a fetch counting its answers by status and window. */
async function limitedMock(history = 100) {
  const mock = await startMockHttpServer({
    variant: 2,
    plans: { bench: { rateLimit: LIMIT, window: WINDOW_MS } },
    keys: [{ key: KEY, plan: 'bench' }],
    history: { requests: history },
  });
  const served = new Map<string, number>();
  let limited = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    if (response.status === 429) limited += 1;
    if (response.status === 200) {
      const reset = response.headers.get('x-ratelimit-reset') ?? '';
      served.set(reset, (served.get(reset) ?? 0) + 1);
    }
    return response;
  };
  return { mock, fetch, share: () => shareOfWindows(served), limited: () => limited };
}

/** Requests served per whole window (the first and last may be cut short) as a share of the limit. */
function shareOfWindows(served: ReadonlyMap<string, number>): number {
  const perWindow = [...served.entries()].sort(([a], [b]) => Number(a) - Number(b)).map(([, n]) => n);
  const whole = perWindow.length > 2 ? perWindow.slice(1, -1) : perWindow;
  return whole.reduce((a, b) => a + b, 0) / (whole.length * LIMIT);
}

/** sendBulk under a limit: the share of the budget used and the 429s. */
async function underLimit(n: number): Promise<Row[]> {
  const { mock, fetch, share, limited } = await limitedMock();
  try {
    const client = new Variant2Client({ apiKey: KEY, baseUrl: mock.baseUrl, fetch, maxRetries: 20 });
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS - (Date.now() % WINDOW_MS) + 5));
    const report = await sendBulk(client, {
      id: 'limited',
      recipients: phones(n),
      message: text,
      concurrency: CONCURRENCY,
    });
    if (report.sent !== n) throw new Error(`sendBulk sent ${report.sent} of ${n} under the limit`);
    const label = `${n} recipients, limit ${LIMIT}/${WINDOW_MS / 1000} s, concurrency ${CONCURRENCY}`;
    return [
      {
        figure: '12',
        subject: `${label}: share of the budget sendBulk used (whole windows)`,
        value: Math.round(share() * 1000) / 10,
        unit: '%',
        target: { text: '>= 95%', met: share() >= 0.95 },
      },
      {
        figure: '12',
        subject: `${label}: 429 responses`,
        value: limited(),
        unit: '',
        target: { text: '0', met: limited() === 0 },
      },
    ];
  } finally {
    await mock.close();
  }
}

/** `processes` BullMQ worker processes sending `n` jobs on one key: the share of the budget used, and 429s. */
async function workers(processes: number, n: number, redisPort: number, queue: string) {
  const { mock } = await limitedMock(n + 100);
  const args = JSON.stringify({ baseUrl: mock.baseUrl, apiKey: KEY, redisPort, queue });
  const children = await Promise.all(
    Array.from({ length: processes }, () => startScript('./probes/bulk-worker.mjs', [args])),
  );
  try {
    const connection = { host: '127.0.0.1', port: redisPort };
    await enqueueBulk({ connection, id: queue, recipients: phones(n), message: text, queue });
    for (;;) {
      const report = await bulkReport({ connection, id: queue });
      if (report.pending === 0) {
        if (report.sent !== n) throw new Error(`${processes} workers sent ${report.sent} of ${n}`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const served = new Map<string, number>();
    let limited = 0;
    for (const entry of mock.mock.requests({ method: 'POST' })) {
      if (entry.status === 429) limited += 1;
      const reset = entry.response?.headers['x-ratelimit-reset'];
      if (entry.status === 200 && reset !== undefined) served.set(reset, (served.get(reset) ?? 0) + 1);
    }
    return { share: shareOfWindows(served), limited };
  } finally {
    await Promise.all(children.map(({ child }) => stop(child)));
    await mock.close();
  }
}

/** BullMQ on one key: 1 worker process against 4; the budget, not the workers, sets the pace. */
async function onBullmq(n: number): Promise<Row[]> {
  if (!hasRedisServer()) return [];
  const redis = await startRedisServer();
  try {
    const one = await workers(1, n, redis.port, 'bench-bulk-1');
    const four = await workers(4, n, redis.port, 'bench-bulk-4');
    const label = `BullMQ, ${n} recipients, limit ${LIMIT}/${WINDOW_MS / 1000} s on one key`;
    const r = ratio(four.share, one.share);
    return [
      {
        figure: '12',
        subject: `${label}: share of the budget used (whole windows), 4 worker processes`,
        value: Math.round(four.share * 1000) / 10,
        unit: '%',
        baseline: { name: '1 worker process', value: Math.round(one.share * 1000) / 10, ratio: r },
        target: {
          text: 'the budget sets the pace: both >= 95%, 4 within 5% of 1',
          met: Math.min(one.share, four.share) >= 0.95 && Math.abs(r - 1) <= 0.05,
        },
      },
      {
        figure: '12',
        subject: `${label}: 429 responses (1 and 4 worker processes)`,
        value: one.limited + four.limited,
        unit: '',
        target: { text: '0', met: one.limited + four.limited === 0 },
      },
    ];
  } finally {
    await redis.stop();
  }
}

/** Figure 12. */
export async function measureBulk({ quick }: BenchOptions): Promise<Row[]> {
  return [
    ...(await throughput(quick ? 2000 : 100_000, 2)),
    ...(await underLimit(quick ? 300 : 1000)),
    ...(await onBullmq(quick ? 200 : 600)),
  ];
}
