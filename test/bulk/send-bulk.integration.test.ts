import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BulkJournalBusyError,
  BulkJournalMismatchError,
  fileJournal,
  memoryJournal,
  sendBulk,
  type BulkProgress,
  type BulkRun,
  type BulkResult,
} from '../../src/bulk/index.js';
import { AuthenticationError, ConnectionError, InvalidArgumentError, Variant2Client } from '../../src/index.js';
import { startCountingServer, type SendBehaviour } from '../helpers/counting-server.js';

type Server = Awaited<ReturnType<typeof startCountingServer>>;

const phones = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `+49151${String(10_000_000 + from + i)}`);
const text = (to: string) => ({ to, messaging_account_id: 1, type: 'text' as const, content: { body: 'Hi' } });

let behaviours = new Map<string, SendBehaviour>();
let server: Server;
const client = () => new Variant2Client({ apiKey: 'k_test', baseUrl: server.baseUrl, timeout: 300, rateLimit: false });
/** A client for tests that count every send: a loaded machine must not turn a slow answer into `unknown`. */
const patient = () =>
  new Variant2Client({ apiKey: 'k_test', baseUrl: server.baseUrl, timeout: 10_000, rateLimit: false });

beforeAll(async () => {
  server = await startCountingServer((to) => behaviours.get(to) ?? { kind: 'ok' });
});
afterAll(() => server.close());

async function collect(run: ReturnType<typeof sendBulk>): Promise<BulkResult[]> {
  const results: BulkResult[] = [];
  for await (const result of run.results()) results.push(result);
  return results;
}

describe('sendBulk', () => {
  it('sends one message per key, skips repeats, fails bad rows before sending, and reports each', async () => {
    server.counts.clear();
    const [a, b, c] = phones(3);
    const rows = [a!, b!, '+49 151 10000000', 'not a phone', c!, 'THROW', b!];
    const progress: BulkProgress[] = [];
    const run = sendBulk(client(), {
      id: 'job-1',
      recipients: rows,
      message: (to: string) => {
        if (to === 'THROW') throw new Error('no address for this customer');
        return text(to);
      },
    }).on('progress', (p) => progress.push(p));
    const results = await collect(run);
    const report = await run;
    expect(report).toEqual({
      id: 'job-1',
      total: 7,
      sent: 3,
      failed: 2,
      unknown: 0,
      skipped: 2,
      suppressed: 0,
      pending: 0,
      aborted: false,
      results: expect.any(Function),
    });
    expect([...server.counts.entries()].sort()).toEqual([a, b, c].map((to) => [to, 1]));
    expect(
      results
        .filter((r) => r.status === 'sent')
        .map((r) => r.key)
        .sort(),
    ).toEqual([a, b, c]);
    expect(results.find((r) => r.key === 'not a phone')).toEqual({
      key: 'not a phone',
      to: 'not a phone',
      status: 'failed',
      error: { code: 'INVALID_PHONE', message: expect.stringContaining('not a valid phone number') },
    });
    expect(results.find((r) => r.key === '#6')).toEqual({
      key: '#6',
      to: '',
      status: 'failed',
      error: { code: 'INVALID_RECIPIENT', message: 'recipient #6: no address for this customer' },
    });
    expect(
      results
        .filter((r) => r.status === 'skipped')
        .map((r) => r.key)
        .sort(),
    ).toEqual([a, b]);
    expect(results.find((r) => r.key === a && r.status === 'sent')?.messageId).toMatch(/^msg_\d+$/);
    expect(progress).toHaveLength(7);
    expect(progress.at(-1)).toMatchObject({ total: 7, sent: 3, failed: 2, skipped: 2, unknown: 0 });
  });

  it('keys by key(recipient) when given', async () => {
    const [a, b] = phones(2, 100);
    const rows = [
      { id: 'c1', phone: a! },
      { id: 'c2', phone: a! },
      { id: 'c1', phone: b! },
    ];
    const report = await sendBulk(client(), {
      id: 'job-key',
      recipients: rows,
      key: (r) => r.id,
      message: (r) => text(r.phone),
    });
    expect(report).toMatchObject({ total: 3, sent: 2, skipped: 1 });
  });

  it('a 4xx is failed with its code; a 5xx, a timeout and a reset after sending are unknown; a 429 is waited out', async () => {
    const [bad, boom, slow, reset, limited, fine] = phones(6, 200);
    behaviours = new Map<string, SendBehaviour>([
      [bad!, { kind: 'error', status: 400, code: 'INVALID_PHONE' }],
      [boom!, { kind: 'error', status: 500, code: 'INTERNAL_ERROR' }],
      [slow!, { kind: 'hang' }],
      [reset!, { kind: 'reset' }],
    ]);
    let limitedOnce = false;
    const server429 = await startCountingServer((to) => {
      if (to === limited && !limitedOnce) {
        limitedOnce = true;
        return { kind: 'error', status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfter: 1 };
      }
      return behaviours.get(to) ?? { kind: 'ok' };
    });
    try {
      const c = new Variant2Client({
        apiKey: 'k',
        baseUrl: server429.baseUrl,
        timeout: 300,
        rateLimit: false,
        maxRetries: 0,
      });
      const run = sendBulk(c, {
        id: 'faults',
        recipients: [bad!, boom!, slow!, reset!, limited!, fine!],
        message: text,
      });
      const results = await collect(run);
      const byKey = Object.fromEntries(results.map((r) => [r.key, r]));
      expect(await run).toMatchObject({ total: 6, sent: 2, failed: 1, unknown: 3 });
      expect(byKey[bad!]).toMatchObject({ status: 'failed', error: { code: 'INVALID_PHONE' } });
      expect(byKey[boom!]).toMatchObject({ status: 'unknown', error: { code: 'INTERNAL_ERROR' } });
      expect(byKey[slow!]).toMatchObject({ status: 'unknown', error: { code: 'TimeoutError' } });
      expect(byKey[reset!]).toMatchObject({ status: 'unknown', error: { code: 'ConnectionError' } });
      expect(byKey[limited!]).toMatchObject({ status: 'sent' });
      expect(server429.counts.get(limited!)).toBe(2);
      expect([bad, boom, slow, reset, fine].map((to) => server429.counts.get(to!))).toEqual([1, 1, 1, 1, 1]);
    } finally {
      behaviours = new Map();
      await server429.close();
    }
  });

  it('resumes: outcomes stay, a key claimed when the run stopped is unknown, and the report covers the whole job', async () => {
    const rows = phones(40, 300);
    const journal = memoryJournal();
    const controller = new AbortController();
    const first = sendBulk(client(), {
      id: 'resume',
      recipients: rows,
      message: text,
      journal,
      signal: controller.signal,
      concurrency: 4,
    });
    first.on('progress', (p) => {
      if (p.sent === 10) controller.abort();
    });
    const partial = await first;
    expect(partial.aborted).toBe(true);
    expect(partial.sent).toBeGreaterThanOrEqual(10);
    // A claim left by a run that died: its request may have left.
    await journal.open('resume');
    await journal.put(rows[39]!, { to: rows[39]!, status: 'claimed', run: 1 });
    await journal.close();
    const before = server.total();
    const second = sendBulk(client(), { id: 'resume', recipients: rows, message: text, journal });
    const results = await collect(second);
    expect(await second).toEqual({
      id: 'resume',
      total: 40,
      sent: 39,
      failed: 0,
      unknown: 1,
      skipped: 0,
      suppressed: 0,
      pending: 0,
      aborted: false,
      results: expect.any(Function),
    });
    expect(server.total() - before).toBe(40 - partial.sent - 1);
    expect(results.find((r) => r.key === rows[39])).toMatchObject({
      status: 'unknown',
      error: { code: 'INTERRUPTED' },
    });
    expect(rows.every((to) => server.counts.get(to) === (to === rows[39] ? undefined : 1))).toBe(true);
    // resendUnknown sends the unknown one, and nothing else.
    const third = await sendBulk(client(), {
      id: 'resume',
      recipients: rows,
      message: text,
      journal,
      resendUnknown: true,
    });
    expect(third).toMatchObject({ total: 40, sent: 40, unknown: 0 });
    expect(server.counts.get(rows[39]!)).toBe(1);
  });

  it('stops when the service is out of reach, claiming nothing it did not send; the next run sends them', async () => {
    const down = await startCountingServer();
    const baseUrl = down.baseUrl;
    await down.close();
    const rows = phones(5, 450);
    const journal = memoryJournal();
    const unreachable = new Variant2Client({ apiKey: 'k', baseUrl, rateLimit: false, maxRetries: 0 });
    const run = sendBulk(unreachable, { id: 'down', recipients: rows, message: text, journal, concurrency: 2 });
    await expect(run).rejects.toThrow(ConnectionError);
    await journal.open('down');
    expect(await Promise.all(rows.map((to) => journal.get(to)))).toEqual(rows.map(() => undefined));
    await journal.close();
    const report = await sendBulk(client(), { id: 'down', recipients: rows, message: text, journal });
    expect(report).toMatchObject({ total: 5, sent: 5, failed: 0, unknown: 0 });
  });

  it('stops at a refused key, claiming nothing it did not send; a run with the right key sends each row once', async () => {
    let keyRefused = true;
    const refusing = await startCountingServer(() =>
      keyRefused ? { kind: 'error', status: 401, code: 'AUTHENTICATION_ERROR' } : { kind: 'ok' },
    );
    try {
      const rows = phones(40, 470);
      const journal = memoryJournal();
      const sender = new Variant2Client({ apiKey: 'k_wrong', baseUrl: refusing.baseUrl, rateLimit: false });
      const run = sendBulk(sender, { id: 'key', recipients: rows, message: text, journal, concurrency: 4 });
      await expect(run).rejects.toThrow(AuthenticationError);
      // Only the sends already under way when the first refusal came, not one request per row.
      const refused = refusing.total();
      expect(refused).toBeGreaterThanOrEqual(1);
      expect(refused).toBeLessThanOrEqual(4);
      await journal.open('key');
      expect(await Promise.all(rows.map((to) => journal.get(to)))).toEqual(rows.map(() => undefined));
      await journal.close();
      keyRefused = false;
      const report = await sendBulk(sender, { id: 'key', recipients: rows, message: text, journal });
      expect(report).toMatchObject({ total: 40, sent: 40, failed: 0, unknown: 0 });
      // Each row answered 200 once: the second run sent each row once more than the refusals it had.
      expect(refusing.total()).toBe(40 + refused);
      expect(rows.filter((to) => refusing.counts.get(to) === 2).length).toBe(refused);
    } finally {
      await refusing.close();
    }
  });

  it('refuses a journal of another job, before sending anything', async () => {
    const journal = memoryJournal();
    await sendBulk(client(), { id: 'one', recipients: phones(1, 400), message: text, journal });
    const before = server.total();
    const run = sendBulk(client(), { id: 'two', recipients: phones(2, 401), message: text, journal });
    await expect(run).rejects.toThrow(BulkJournalMismatchError);
    await expect(run).rejects.toMatchObject({ expected: 'two', found: 'one' });
    expect(server.total()).toBe(before);
  });

  it('checks its options', () => {
    const c = client();
    const base = { id: 'x', recipients: [], message: text };
    expect(() => sendBulk(c, { ...base, id: '' })).toThrow(InvalidArgumentError);
    expect(() => sendBulk(c, { ...base, concurrency: 0 })).toThrow(/concurrency/);
    expect(() => sendBulk(c, { ...base, recipients: 'abc' as never })).toThrow(/recipients/);
    expect(() => sendBulk({} as Variant2Client, base)).toThrow(/client/);
  });
});

describe('fileJournal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bizmsg-bulk-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps outcomes across journals opened on the same folder, and one run at a time', async () => {
    const path = join(dir, 'j1');
    const rows = phones(20, 500);
    const first = await sendBulk(client(), {
      id: 'file',
      recipients: rows.slice(0, 10),
      message: text,
      journal: fileJournal(path),
    });
    expect(first).toMatchObject({ total: 10, sent: 10 });
    const before = server.total();
    const second = await sendBulk(client(), {
      id: 'file',
      recipients: rows,
      message: text,
      journal: fileJournal(path),
    });
    expect(second).toMatchObject({ total: 20, sent: 20 });
    expect(server.total() - before).toBe(10);
    await expect(
      sendBulk(client(), { id: 'other', recipients: rows, message: text, journal: fileJournal(path) }),
    ).rejects.toThrow(BulkJournalMismatchError);
    const held = fileJournal(path);
    await held.open('file');
    await expect(
      sendBulk(client(), { id: 'file', recipients: rows, message: text, journal: fileJournal(path) }),
    ).rejects.toThrow(BulkJournalBusyError);
    await held.close();
  });
});

/** Rejects naming `what` when `promise` has not settled within `ms`: a stall fails the test instead of hanging it. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, stalled]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const byKeyAndStatus = (results: readonly BulkResult[]) =>
  [...results].sort((a, b) => `${a.key}|${a.status}`.localeCompare(`${b.key}|${b.status}`));

describe('sendBulk under abuse', () => {
  it(
    'a reader that awaits 2 ms per result holds the run back but never stalls it (700 recipients)',
    { timeout: 60_000 },
    async () => {
      const rows = phones(700, 1000);
      const run = sendBulk(patient(), { id: 'slow-reader', recipients: rows, message: text, concurrency: 16 });
      const seen: BulkResult[] = [];
      const reading = (async () => {
        for await (const result of run.results()) {
          await sleep(2);
          seen.push(result);
        }
      })();
      const [report] = await within(30_000, 'the run and its slow reader', Promise.all([run, reading]));
      expect(report).toEqual({
        id: 'slow-reader',
        total: 700,
        sent: 700,
        failed: 0,
        unknown: 0,
        skipped: 0,
        suppressed: 0,
        pending: 0,
        aborted: false,
        results: expect.any(Function),
      });
      expect(seen).toHaveLength(700);
      expect(new Set(seen.map((r) => r.key))).toEqual(new Set(rows));
      expect(rows.every((to) => server.counts.get(to) === 1)).toBe(true);
    },
  );

  it('results() called after the run yields the whole job from the journal, as a reader during it saw it', async () => {
    const [a, b, c] = phones(3, 1800);
    const rows = [a!, b!, 'n/a', a!, '', c!, 'n/a', ''];
    const journal = memoryJournal();
    const run = sendBulk(patient(), { id: 'after', recipients: rows, message: text, journal });
    const live = await collect(run);
    const report = await run;
    const after = await collect(run);
    expect(report).toMatchObject({ total: 8, sent: 3, failed: 4, skipped: 1 });
    expect(after).toHaveLength(8);
    expect(byKeyAndStatus(after)).toEqual(byKeyAndStatus(live));
    // Resumed, the job's results still cover it whole: earlier outcomes under their own status.
    const resumed = sendBulk(patient(), { id: 'after', recipients: rows, message: text, journal });
    const report2 = await resumed;
    expect({ ...report2, results: undefined }).toEqual({ ...report, results: undefined });
    expect(byKeyAndStatus(await collect(resumed))).toEqual(byKeyAndStatus(live));
    // The report reads the same results again, as bulkReport's does for a job on BullMQ.
    const fromReport: BulkResult[] = [];
    for await (const result of report2.results()) fromReport.push(result);
    expect(byKeyAndStatus(fromReport)).toEqual(byKeyAndStatus(live));
  });

  it('progress: inFlight never above concurrency, and 0 in the last event of the run', async () => {
    const progress: BulkProgress[] = [];
    const run = sendBulk(patient(), { id: 'in-flight', recipients: phones(50, 1900), message: text, concurrency: 4 });
    run.on('progress', (p) => progress.push(p));
    expect(await run).toMatchObject({ total: 50, sent: 50 });
    expect(progress.length).toBeGreaterThanOrEqual(50);
    expect(progress.every((p) => p.inFlight >= 0 && p.inFlight <= 4)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ total: 50, sent: 50, inFlight: 0 });
  });

  it('every row whose phone is empty or invalid is failed with its reason, repeats of junk too; only a real number repeats', async () => {
    const [a] = phones(1, 1950);
    const rows = ['n/a', 'n/a', '', '', a!, a!, 'n/a'];
    const run = sendBulk(patient(), { id: 'junk', recipients: rows, message: text });
    const results = await collect(run);
    expect(await run).toEqual({
      id: 'junk',
      total: 7,
      sent: 1,
      failed: 5,
      unknown: 0,
      skipped: 1,
      suppressed: 0,
      pending: 0,
      aborted: false,
      results: expect.any(Function),
    });
    const failed = results.filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.to).sort()).toEqual(['', '', 'n/a', 'n/a', 'n/a']);
    expect(failed.every((r) => r.error?.code === 'INVALID_PHONE' && r.error.message.length > 0)).toBe(true);
    expect(results.filter((r) => r.status === 'skipped').map((r) => r.key)).toEqual([a]);
  });

  it('two runs of one job on one memory journal at once: the second is refused before sending, 0 duplicates', async () => {
    const rows = phones(300, 2000);
    const journal = memoryJournal();
    const first = sendBulk(patient(), { id: 'twice', recipients: rows, message: text, journal });
    const second = sendBulk(patient(), { id: 'twice', recipients: rows, message: text, journal });
    await expect(second).rejects.toThrow(BulkJournalBusyError);
    await expect(second).rejects.toThrow(/in use by another run/);
    // A third, started while the first is half-way (a double-clicked button), is refused too.
    let third: BulkRun | undefined;
    first.on('progress', (p) => {
      if (p.sent === 150) third = sendBulk(patient(), { id: 'twice', recipients: rows, message: text, journal });
    });
    expect(await first).toMatchObject({ total: 300, sent: 300 });
    await expect(third!).rejects.toThrow(BulkJournalBusyError);
    expect(rows.map((to) => server.counts.get(to))).toEqual(rows.map(() => 1));
    // Once the first has ended, the journal serves a run again (a resume: nothing is sent).
    expect(await sendBulk(patient(), { id: 'twice', recipients: rows, message: text, journal })).toMatchObject({
      sent: 300,
    });
    expect(rows.map((to) => server.counts.get(to))).toEqual(rows.map(() => 1));
  });
});
