import { expectTypeOf, test } from 'vitest';
import {
  type BulkJournalBusyError,
  type BulkJournalDamagedError,
  fileJournal,
  memoryJournal,
  sendBulk,
  type BulkJournal,
  type BulkReport,
  type BulkResult,
  type JournalEntry,
  bulkOutcomes,
  readCsv,
  toCsv,
  type BulkOutcome,
  type CsvReadError,
  type CsvRow,
  type Suppression,
} from '../../src/bulk/index.js';
import { Variant1Client, Variant2Client } from '../../src/index.js';
import { createStatusTracker, fileStatusStore, memoryStatusStore } from '../../src/webhooks/index.js';

test('sendBulk takes the body of each variant, and only that', () => {
  const v2 = new Variant2Client({ apiKey: 'k', baseUrl: 'https://x.test/api/v1' });
  const v1 = new Variant1Client({ apiKey: 'k', baseUrl: 'https://x.test/api/v1' });
  const run = sendBulk(v2, {
    id: 'job',
    recipients: [{ phone: '+4915112345678' }],
    message: (r) => ({ to: r.phone, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } }),
  });
  expectTypeOf(run).toExtend<PromiseLike<BulkReport>>();
  expectTypeOf(run.results()).toExtend<AsyncIterable<BulkResult>>();
  sendBulk(v1, { id: 'job', recipients: ['+4915112345678'], message: (to) => ({ to, message: 'Hi' }) });
  sendBulk(v1, {
    id: 'job',
    recipients: ['+4915112345678'],
    message: (to) => ({ to, name: 'order_update', language: 'en', components: [] }),
  });
  sendBulk(v2, {
    id: 'job',
    recipients: ['+4915112345678'],
    // @ts-expect-error a Variant 1 body for a Variant 2 client
    message: (to) => ({ to, message: 'Hi' }),
  });
  sendBulk(v1, {
    id: 'job',
    recipients: ['+4915112345678'],
    // @ts-expect-error a Variant 2 body for a Variant 1 client
    message: (to) => ({ to, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } }),
  });
});

test('a journal of your own claims in one step and lists its entries; the errors name the journal', () => {
  const entries = new Map<string, JournalEntry>();
  const mine: BulkJournal = {
    open: () => Promise.resolve(1),
    get: (key) => Promise.resolve(entries.get(key)),
    claim: (key, entry) => Promise.resolve(entries.get(key) ?? void entries.set(key, entry)),
    put: (key, entry) => Promise.resolve(void entries.set(key, entry)),
    delete: (key) => Promise.resolve(void entries.delete(key)),
    entries: () => entries.entries(),
    close: () => Promise.resolve(),
  };
  expectTypeOf(mine.claim).returns.toEqualTypeOf<Promise<JournalEntry | undefined>>();
  // @ts-expect-error a journal must claim in one step
  const noClaim: BulkJournal = { ...mine, claim: undefined };
  void noClaim;
  expectTypeOf(memoryJournal()).toEqualTypeOf<BulkJournal>();
  expectTypeOf(fileJournal).parameters.toEqualTypeOf<[path: string]>();
  expectTypeOf<BulkJournalBusyError['journal']>().toEqualTypeOf<string>();
  expectTypeOf<BulkJournalDamagedError['journal']>().toEqualTypeOf<string>();
  expectTypeOf<JournalEntry['status']>().toEqualTypeOf<
    'claimed' | 'sent' | 'failed' | 'unknown' | 'skipped' | 'suppressed'
  >();
});

test('suppress is a function of the recipient and its number; progress has done and expected', () => {
  const v2 = new Variant2Client({ apiKey: 'k', baseUrl: 'https://x.test/api/v1' });
  const run = sendBulk(v2, {
    id: 'job',
    recipients: [{ phone: '+4915112345678', optedOut: false }],
    expected: 1,
    suppress: async (r, to) => {
      expectTypeOf(to).toEqualTypeOf<string>();
      return r.optedOut && 'opted out';
    },
    message: (r) => ({ to: r.phone, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } }),
  });
  run.on('progress', (p) => {
    expectTypeOf(p.done).toEqualTypeOf<number>();
    expectTypeOf(p.expected).toEqualTypeOf<number | undefined>();
    expectTypeOf(p.suppressed).toEqualTypeOf<number>();
  });
  expectTypeOf<Suppression>().toEqualTypeOf<boolean | string | null | undefined>();
  expectTypeOf<BulkReport['suppressed']>().toEqualTypeOf<number>();
});

test('bulkOutcomes reads a tracker or a store; toCsv is text for rows in hand, a promise for a stream', () => {
  const outcomes = bulkOutcomes(memoryJournal(), { id: 'job', tracker: createStatusTracker() });
  expectTypeOf(outcomes).toExtend<AsyncIterable<BulkOutcome>>();
  bulkOutcomes(memoryJournal(), { id: 'job', tracker: fileStatusStore('./statuses') });
  bulkOutcomes(memoryJournal(), { id: 'job', tracker: memoryStatusStore() });
  expectTypeOf<BulkOutcome['outcome']>().toEqualTypeOf<
    'sent' | 'failed' | 'unknown' | 'skipped' | 'suppressed' | 'delivered' | 'read'
  >();
  expectTypeOf(toCsv(outcomes)).toEqualTypeOf<Promise<string>>();
  expectTypeOf(toCsv([{ key: 'a' }])).toEqualTypeOf<string>();
  // @ts-expect-error: an id is required
  bulkOutcomes(memoryJournal(), {});
});

test('readCsv yields each row with its line, from a path, text, URL or stream', () => {
  expectTypeOf(readCsv('./patients.csv')).toExtend<AsyncIterable<CsvRow>>();
  expectTypeOf<CsvRow['row']>().toEqualTypeOf<Readonly<Record<string, string>>>();
  expectTypeOf<CsvRow['line']>().toEqualTypeOf<number>();
  readCsv(new URL('file:///tmp/a.csv'), { limit: 10 });
  expectTypeOf<CsvReadError['problem']>().toEqualTypeOf<'encoding' | 'row-too-long' | 'malformed' | 'unreadable'>();
});
