import { mkdtempSync, openSync, readdirSync, rmSync, statSync, truncateSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BulkJournalBusyError,
  BulkJournalDamagedError,
  fileJournal,
  sendBulk,
  type BulkResult,
  type BulkRun,
} from '../../src/bulk/index.js';
import { Variant2Client } from '../../src/index.js';
import { startCountingServer } from '../helpers/counting-server.js';

// fileJournal under damage and contention: a journal whose on-disk log was cut short or had bytes
// overwritten is refused, naming it, and sends nothing again; two runs on one journal at once are
// refused before anything is sent.

type Server = Awaited<ReturnType<typeof startCountingServer>>;

const phones = (n: number, from: number) =>
  Array.from({ length: n }, (_, i) => `+49152${String(10_000_000 + from + i)}`);
const text = (to: string) => ({ to, messaging_account_id: 1, type: 'text' as const, content: { body: 'Hi' } });

let server: Server;
const client = () =>
  new Variant2Client({ apiKey: 'k_test', baseUrl: server.baseUrl, timeout: 10_000, rateLimit: false });
const dir = mkdtempSync(join(tmpdir(), 'bizmsg-journal-'));

beforeAll(async () => {
  server = await startCountingServer(() => ({ kind: 'ok' }));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The files of LevelDB's write-ahead log in the journal's folder (`NNNNNN.log`; `LOG` is its text log). */
function logFiles(path: string): string[] {
  return readdirSync(path)
    .filter((name) => /^\d+\.log$/.test(name))
    .map((name) => join(path, name))
    .filter((file) => statSync(file).size > 0);
}

function overwrite(file: string, offset: number, bytes: number): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(bytes, 0xa5), 0, bytes, offset);
  } finally {
    closeSync(fd);
  }
}

const DAMAGE: Array<[string, (file: string) => void]> = [
  ['its log truncated to half', (file) => truncateSync(file, Math.floor(statSync(file).size / 2))],
  ['its log cut short by 10 bytes (the last write lost)', (file) => truncateSync(file, statSync(file).size - 10)],
  ['64 bytes of its log overwritten in the middle', (file) => overwrite(file, Math.floor(statSync(file).size / 2), 64)],
  ['64 bytes of its log overwritten near the start', (file) => overwrite(file, 40, 64)],
];

describe('a damaged fileJournal', () => {
  let base = 0;
  it.each(DAMAGE)('%s: refused naming it, 0 re-sends, and still refused after', async (_, damage) => {
    const path = join(dir, `damaged-${(base += 1)}`);
    const rows = phones(100, base * 1000);
    const first = await sendBulk(client(), {
      id: 'flash-sale',
      recipients: rows,
      message: text,
      journal: fileJournal(path),
    });
    expect(first).toMatchObject({ total: 100, sent: 100 });
    const logs = logFiles(path);
    expect(logs.length).toBeGreaterThan(0);
    for (const log of logs) damage(log);
    const before = server.total();
    for (let attempt = 0; attempt < 2; attempt++) {
      const run = sendBulk(client(), { id: 'flash-sale', recipients: rows, message: text, journal: fileJournal(path) });
      await expect(run).rejects.toThrow(BulkJournalDamagedError);
      await expect(run).rejects.toMatchObject({ journal: path, message: expect.stringContaining(path) });
      await expect(run).rejects.toThrow(/nothing was sent/i);
      expect(server.total()).toBe(before);
    }
    expect(rows.every((to) => server.counts.get(to) === 1)).toBe(true);
  });

  it('cut short after a run that stopped half-way: refused, and the recipients it had sent are not sent again', async () => {
    const path = join(dir, 'half');
    const rows = phones(100, 20_000);
    const controller = new AbortController();
    const first = sendBulk(client(), {
      id: 'half',
      recipients: rows,
      message: text,
      journal: fileJournal(path),
      signal: controller.signal,
      concurrency: 4,
    }).on('progress', (p) => p.sent === 50 && controller.abort());
    expect(await first).toMatchObject({ aborted: true });
    const before = server.total();
    for (const log of logFiles(path)) truncateSync(log, Math.floor(statSync(log).size * 0.6));
    const run = sendBulk(client(), { id: 'half', recipients: rows, message: text, journal: fileJournal(path) });
    await expect(run).rejects.toThrow(BulkJournalDamagedError);
    expect(server.total()).toBe(before);
  });

  it('its seal removed: refused, naming the journal', async () => {
    const path = join(dir, 'unsealed');
    const rows = phones(10, 30_000);
    await sendBulk(client(), { id: 'unsealed', recipients: rows, message: text, journal: fileJournal(path) });
    const seals = readdirSync(path).filter((name) => name.startsWith('bizmsg'));
    expect(seals).toHaveLength(1);
    rmSync(join(path, seals[0]!));
    const before = server.total();
    const run = sendBulk(client(), { id: 'unsealed', recipients: rows, message: text, journal: fileJournal(path) });
    await expect(run).rejects.toThrow(BulkJournalDamagedError);
    await expect(run).rejects.toMatchObject({ journal: path });
    expect(server.total()).toBe(before);
  });

  it.each([
    ['its first slot', [0], false],
    ['its second slot', [64], false],
    ['both its slots', [0, 64], true],
  ] as const)('its seal with %s overwritten: refused only when no slot is whole', async (_, offsets, refused) => {
    const path = join(dir, `seal-${offsets.join('-')}`);
    const rows = phones(20, 35_000 + offsets.length * 100 + offsets[0]);
    await sendBulk(client(), { id: 'seal', recipients: rows, message: text, journal: fileJournal(path) });
    for (const offset of offsets) overwrite(join(path, 'bizmsg-seal'), offset, 64);
    const before = server.total();
    const run = sendBulk(client(), { id: 'seal', recipients: rows, message: text, journal: fileJournal(path) });
    if (refused) await expect(run).rejects.toThrow(BulkJournalDamagedError);
    else expect(await run).toMatchObject({ total: 20, sent: 20, unknown: 0 });
    expect(server.total()).toBe(before);
  });

  it('an intact journal resumes as before, from the log and again from its tables', async () => {
    const path = join(dir, 'intact');
    const rows = phones(60, 40_000);
    const controller = new AbortController();
    await sendBulk(client(), {
      id: 'intact',
      recipients: rows,
      message: text,
      journal: fileJournal(path),
      signal: controller.signal,
      concurrency: 2,
    }).on('progress', (p) => p.sent === 20 && controller.abort());
    // Resumed from LevelDB's log, then again from the tables it wrote the log into when it opened.
    for (let run = 2; run <= 3; run++) {
      const report = await sendBulk(client(), {
        id: 'intact',
        recipients: rows,
        message: text,
        journal: fileJournal(path),
      });
      expect(report).toMatchObject({ total: 60, sent: 60, unknown: 0 });
    }
    expect(rows.every((to) => server.counts.get(to) === 1)).toBe(true);
  });
});

describe('one run per fileJournal at a time', () => {
  it('two runs on one fileJournal object at once: the second is refused before sending, 0 duplicates', async () => {
    const path = join(dir, 'twice');
    const rows = phones(300, 50_000);
    const journal = fileJournal(path);
    const first = sendBulk(client(), { id: 'twice', recipients: rows, message: text, journal });
    const second = sendBulk(client(), { id: 'twice', recipients: rows, message: text, journal });
    let third: BulkRun | undefined;
    first.on('progress', (p) => {
      if (p.sent === 150) third = sendBulk(client(), { id: 'twice', recipients: rows, message: text, journal });
    });
    await expect(second).rejects.toThrow(BulkJournalBusyError);
    await expect(second).rejects.toMatchObject({ journal: path });
    expect(await first).toMatchObject({ total: 300, sent: 300 });
    await expect(third!).rejects.toThrow(/in use by another run/);
    expect(rows.map((to) => server.counts.get(to))).toEqual(rows.map(() => 1));
    // The first run's journal is whole: a resume sends nothing.
    const results: BulkResult[] = [];
    const resumed = sendBulk(client(), { id: 'twice', recipients: rows, message: text, journal });
    for await (const result of resumed.results()) results.push(result);
    expect(await resumed).toMatchObject({ total: 300, sent: 300 });
    expect(results.every((r) => r.status === 'sent')).toBe(true);
    expect(rows.map((to) => server.counts.get(to))).toEqual(rows.map(() => 1));
  });

  it('two fileJournal objects on one folder at once: the second is refused, 0 duplicates', async () => {
    const path = join(dir, 'two-objects');
    const rows = phones(200, 60_000);
    const first = sendBulk(client(), { id: 'two', recipients: rows, message: text, journal: fileJournal(path) });
    const second = sendBulk(client(), { id: 'two', recipients: rows, message: text, journal: fileJournal(path) });
    const [a, b] = await Promise.allSettled([first, second]);
    const refused = [a, b].filter((outcome) => outcome.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(BulkJournalBusyError);
    expect(rows.map((to) => server.counts.get(to))).toEqual(rows.map(() => 1));
  });

  it('results() after the run reads the whole job back from the folder', async () => {
    const path = join(dir, 'after');
    const rows = [...phones(5, 70_000), 'n/a', 'n/a'];
    const run = sendBulk(client(), { id: 'after', recipients: rows, message: text, journal: fileJournal(path) });
    const live: BulkResult[] = [];
    for await (const result of run.results()) live.push(result);
    await run;
    const after: BulkResult[] = [];
    for await (const result of run.results()) after.push(result);
    const order = (list: BulkResult[]) => list.map((r) => `${r.key}|${r.status}|${r.messageId ?? ''}`).sort();
    expect(after).toHaveLength(7);
    expect(order(after)).toEqual(order(live));
  });
});
