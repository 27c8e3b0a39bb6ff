import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkReport, createBulkWorker, enqueueBulk, type BulkResult } from '../../src/bulk/index.js';
import { Variant2Client } from '../../src/index.js';
import { startCountingServer } from '../helpers/counting-server.js';
import { hasRedisServer, startRedisServer, type RedisServer } from '../helpers/redis-server.js';

type Server = Awaited<ReturnType<typeof startCountingServer>>;

// A queue of its own: a worker with BullMQ's default stalledInterval (30 s) holds the stalled check
// of its queue that long, and this test needs the check of its short one.
const CRASH_QUEUE = 'bizmsg-bulk-crash';
const WORKER = fileURLToPath(new URL('./workers/bulk-worker.ts', import.meta.url));
const phones = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `+49152${10_000_000 + from + i}`);
const text = (to: string) => ({ to, messaging_account_id: 1, type: 'text' as const, content: { body: 'Hi' } });

let redis: RedisServer;
let server: Server;
const connection = () => ({ host: '127.0.0.1', port: redis.port });

beforeAll(async () => {
  redis = await startRedisServer();
  server = await startCountingServer(() => ({ kind: 'ok', delayMs: 2 }));
});
afterAll(async () => {
  await server?.close();
  await redis?.stop();
});

async function settled(id: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = await bulkReport({ connection: connection(), id });
    if (report.pending === 0 || Date.now() > deadline) return report;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function collect(iterable: AsyncIterable<BulkResult>): Promise<BulkResult[]> {
  const all: BulkResult[] = [];
  for await (const result of iterable) all.push(result);
  return all;
}

function startWorkerProcess(concurrency: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      WORKER,
      JSON.stringify({ baseUrl: server.baseUrl, redisPort: redis.port, concurrency, queue: CRASH_QUEUE }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the worker exited with ${code} before it was ready`)));
  });
}

describe.skipIf(!hasRedisServer())('bulk sends on BullMQ', () => {
  it('enqueues one job per key, twice adds nothing, and workers send each once', { timeout: 30_000 }, async () => {
    const rows = [...phones(50), phones(1)[0]!, 'bad number'];
    const first = await enqueueBulk({ connection: connection(), id: 'q1', recipients: rows, message: text });
    expect(first).toEqual({ id: 'q1', read: 52, enqueued: 50, failed: 1, skipped: 1, done: 0 });
    const again = await enqueueBulk({ connection: connection(), id: 'q1', recipients: rows, message: text });
    expect(again).toMatchObject({ read: 52, enqueued: 50, failed: 0, skipped: 1, done: 1 });
    const client = new Variant2Client({ apiKey: 'k', baseUrl: server.baseUrl, rateLimit: false });
    const workers = await Promise.all(
      [1, 2].map(() => createBulkWorker({ connection: connection(), client, concurrency: 4 })),
    );
    try {
      const report = await settled('q1');
      expect(report).toMatchObject({ id: 'q1', total: 53, sent: 50, failed: 1, unknown: 0, skipped: 2, pending: 0 });
      expect(phones(50).map((to) => server.counts.get(to))).toEqual(Array(50).fill(1));
      const results = await collect(report.results());
      expect(results).toHaveLength(51);
      expect(results.find((r) => r.key === 'bad number')).toMatchObject({
        status: 'failed',
        error: { code: 'INVALID_PHONE' },
      });
      expect(results.filter((r) => r.status === 'sent').every((r) => /^msg_\d+$/.test(r.messageId ?? ''))).toBe(true);
      const late = await enqueueBulk({ connection: connection(), id: 'q1', recipients: rows, message: text });
      expect(late).toMatchObject({ enqueued: 0, done: 51 });
    } finally {
      await Promise.all(workers.map((w) => w.close()));
    }
  });

  it('every row that cannot be sent is failed on its own, repeats of junk too; enqueued again, they are done', async () => {
    const [a, b] = phones(2, 5000);
    const rows = ['n/a', 'n/a', '', a!, '', b!, a!, 'n/a'];
    const first = await enqueueBulk({ connection: connection(), id: 'junk', recipients: rows, message: text });
    expect(first).toEqual({ id: 'junk', read: 8, enqueued: 2, failed: 5, skipped: 1, done: 0 });
    const again = await enqueueBulk({ connection: connection(), id: 'junk', recipients: rows, message: text });
    expect(again).toMatchObject({ enqueued: 2, failed: 0, done: 5 });
    const client = new Variant2Client({ apiKey: 'k', baseUrl: server.baseUrl, rateLimit: false });
    const worker = await createBulkWorker({ connection: connection(), client, concurrency: 2 });
    try {
      const report = await settled('junk');
      expect(report).toMatchObject({ sent: 2, failed: 5, unknown: 0, pending: 0 });
      const failed = (await collect(report.results())).filter((r) => r.status === 'failed');
      expect(failed.map((r) => r.key).sort()).toEqual(['', '', 'n/a', 'n/a', 'n/a']);
      expect(failed.every((r) => r.error?.code === 'INVALID_PHONE')).toBe(true);
    } finally {
      await worker.close();
    }
  });

  it(
    'a worker killed with -9 mid-job: its jobs handed out again are unknown, never sent twice',
    { timeout: 60_000 },
    async () => {
      const rows = phones(1500, 1000);
      const concurrency = 8;
      server.counts.clear();
      const before = server.total();
      const doomed = await startWorkerProcess(concurrency);
      await enqueueBulk({ connection: connection(), id: 'crash', recipients: rows, message: text, queue: CRASH_QUEUE });
      while (server.total() - before < 300) await new Promise((resolve) => setTimeout(resolve, 2));
      doomed.kill('SIGKILL');
      await new Promise((resolve) => doomed.once('exit', resolve));
      const survivor = await startWorkerProcess(concurrency);
      try {
        const report = await settled('crash');
        expect(report).toMatchObject({ total: 1500, failed: 0, skipped: 0, pending: 0 });
        expect(report.sent + report.unknown).toBe(1500);
        expect(report.unknown).toBeLessThanOrEqual(concurrency);
        expect([...server.counts.values()].filter((n) => n > 1)).toEqual([]);
        const results = await collect(report.results());
        expect(results.filter((r) => r.status === 'unknown').every((r) => r.error?.code === 'INTERRUPTED')).toBe(true);
        expect(results.filter((r) => r.status === 'sent').every((r) => server.counts.get(r.to) === 1)).toBe(true);
      } finally {
        survivor.kill('SIGTERM');
        await new Promise((resolve) => survivor.once('exit', resolve));
      }
    },
  );
});
