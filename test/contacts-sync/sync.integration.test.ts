import { describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  type ContactSyncProgress,
  type ContactSyncResult,
  type ContactSyncRow,
  type Variant2Client,
} from '../../src/index.js';
import { digitsOf, expectedFields, prng, spell, useSyncEmulator } from './fixtures.js';

// contacts.sync against the emulator over HTTP (one contact per number is its rule), every request
// counted by a forwarder in front of it: the report adds up, each number ends with one contact
// holding its rows' fields, and an unchanged list costs its pages alone.

const emulator = useSyncEmulator(2);
const v2 = () => emulator.client() as Variant2Client;

/** Junk a CRM export holds where a number should be (and every tenth junk row is no row at all). */
const JUNK = ['0151 1234 5678', 'call me', '', '12', null, '+49 151 1234 5678 ext. 9'];

/**
 * 1,000 rows over 600 numbers: each number once in a shuffled order, then 350 repeats in other
 * spellings (from number 300 on, a repeat adds an email), and 50 rows with no valid number.
 */
function thousandRows(): unknown[] {
  const random = prng(33);
  const pick = (n: number) => Math.floor(random() * n);
  const fieldsOf = (i: number, repeat: boolean) => ({
    name: `Customer ${i}`,
    tags: [`t${i % 3}`],
    ...(repeat && i >= 300 ? { email: `c${i}@example.com` } : {}),
  });
  const rows: unknown[] = Array.from({ length: 600 }, (_, i) => i)
    .sort(() => random() - 0.5)
    .map((i) => ({ phone: spell(digitsOf(i), pick(6)), ...fieldsOf(i, false) }));
  for (let r = 0; r < 350; r++) {
    const i = pick(600);
    rows.push({ phone: spell(digitsOf(i), pick(6)), ...fieldsOf(i, true) });
  }
  for (let r = 0; r < 50; r++)
    rows.splice(pick(rows.length), 0, r % 10 === 9 ? `junk ${r}` : { phone: JUNK[r % JUNK.length], name: `junk ${r}` });
  return rows;
}

/** The account before the sync: numbers 0 to 99 as the list has them (unchanged), 100 to 199 with an old name. */
async function seedAccount(client: Variant2Client): Promise<void> {
  for (let i = 0; i < 200; i++)
    await client.contacts.create({
      phone: digitsOf(i),
      name: i < 100 ? `Customer ${i}` : `Old ${i}`,
      tags: [`t${i % 3}`],
    });
}

describe('contacts.sync', () => {
  it(
    'makes 1,000 rows in mixed spellings, with repeats and junk, one contact per valid number; the report adds up',
    { timeout: 60_000 },
    async () => {
      const client = v2();
      await seedAccount(client);
      emulator.forwarder.reset();
      const rows = thousandRows();
      const run = client.contacts.sync(rows as ContactSyncRow[]);
      const progress: ContactSyncProgress[] = [];
      run.on('progress', (p) => progress.push(p));
      const results: ContactSyncResult[] = [];
      for await (const result of run.results()) results.push(result);
      const report = await run;

      expect(report).toEqual({
        total: 1000,
        created: 400,
        updated: 100,
        unchanged: 100,
        failed: 50,
        merged: 350,
        aborted: false,
      });
      // Every row has one result; the last progress event is the report with nothing in flight.
      expect(results.map((r) => r.row).sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
      expect(progress.at(-1)).toEqual({ ...report, aborted: undefined, read: 200, inFlight: 0 });
      const failed = results.filter((r) => r.status === 'failed');
      expect(new Set(failed.map((r) => r.error?.code))).toEqual(new Set(['INVALID_PHONE', 'INVALID_ROW']));
      expect(failed.find((r) => r.phone === '0151 1234 5678')?.error?.message).toMatch(
        /^row \d+, field `phone`: "0151 1234 5678" is not a valid phone number: it starts with 0/,
      );

      // One contact per number, holding its rows' fields merged; each row's result names it.
      const byNumber = emulator.contactsByNumber();
      const expected = expectedFields(rows);
      expect(byNumber.size).toBe(600);
      for (const [digits, fields] of expected) {
        const contact = byNumber.get(digits)!;
        expect({ name: contact.name, tags: contact.tags, email: contact.email }).toEqual({
          name: fields.name,
          tags: fields.tags,
          email: fields.email,
        });
      }
      for (const result of results.filter((r) => r.status !== 'failed'))
        expect(byNumber.get(result.phone.slice(1))?.id).toBe(result.contactId);

      // Requests: the account's 200 contacts in 2 pages of 100, then one write per new or changed number.
      expect(emulator.forwarder.count('GET /contacts')).toBe(2);
      expect(emulator.forwarder.count('POST /contacts')).toBe(400);
      expect(emulator.forwarder.count(/^PUT \/contacts\/\d+$/)).toBe(100);
      expect(emulator.forwarder.requests).toHaveLength(502);

      // The same list again: no write, one read per page of the account's 600 contacts.
      emulator.forwarder.reset();
      expect(await client.contacts.sync(rows as ContactSyncRow[])).toEqual({
        total: 1000,
        created: 0,
        updated: 0,
        unchanged: 600,
        failed: 50,
        merged: 350,
        aborted: false,
      });
      expect(emulator.forwarder.requests).toEqual(Array.from({ length: 6 }, () => 'GET /contacts'));

      // 10 rows changed: exactly 10 updates.
      const changed = rows.map((row, index) =>
        index < 30 && typeof (row as ContactSyncRow).phone === 'string'
          ? { ...(row as object), name: `New ${index}` }
          : row,
      );
      const numbersChanged = new Set(
        [...expectedFields(changed)].filter(([digits, f]) => f.name !== expected.get(digits)?.name).map(([d]) => d),
      );
      emulator.forwarder.reset();
      const third = await client.contacts.sync(changed as ContactSyncRow[]);
      expect(third.updated).toBe(numbersChanged.size);
      expect(emulator.forwarder.count(/^PUT /)).toBe(numbersChanged.size);
      expect(emulator.forwarder.count(/^POST /)).toBe(0);
    },
  );

  it('changing 10 rows of an unchanged list makes exactly 10 updates and nothing else', async () => {
    const client = v2();
    const rows = Array.from({ length: 250 }, (_, i) => ({ phone: spell(digitsOf(i), i), name: `Customer ${i}` }));
    await client.contacts.sync(rows);
    emulator.forwarder.reset();
    const changed = rows.map((row, i) => (i % 25 === 7 ? { ...row, name: `${row.name} Jr.` } : row));
    expect(await client.contacts.sync(changed)).toEqual({
      total: 250,
      created: 0,
      updated: 10,
      unchanged: 240,
      failed: 0,
      merged: 0,
      aborted: false,
    });
    expect(emulator.forwarder.requests.filter((r) => !r.startsWith('GET'))).toHaveLength(10);
    expect(emulator.forwarder.count(/^PUT \/contacts\/\d+$/)).toBe(10);
    expect(emulator.forwarder.count('GET /contacts')).toBe(3);
  });

  it('writes only the fields a row gives; tags compare as a set, custom fields by value; a later row wins field by field', async () => {
    const client = v2();
    const ada = await client.contacts.create({
      phone: '+4915112345678',
      name: 'Ada',
      email: 'ada@example.com',
      tags: ['b', 'a'],
      custom_fields: { plan: 'pro', seats: 3 },
    });
    emulator.forwarder.reset();
    // Equal to what is stored: another spelling, tags in another order, custom fields' keys in another order.
    const same = [{ phone: '0049 151 1234 5678', tags: ['a', 'b', 'a'], custom_fields: { seats: 3, plan: 'pro' } }];
    expect((await client.contacts.sync(same)).unchanged).toBe(1);
    expect(emulator.forwarder.count(/^(POST|PUT) /)).toBe(0);

    const run = client.contacts.sync([
      { phone: '+49 151 1234 5678', name: 'Ada L', custom_fields: { plan: 'team' } },
      { phone: '4915112345678', email: 'ada@lovelace.example', custom_fields: { region: 'eu' } },
    ]);
    const results: ContactSyncResult[] = [];
    for await (const result of run.results()) results.push(result);
    expect(await run).toMatchObject({ total: 2, updated: 1, merged: 1 });
    expect(results).toEqual([
      { row: 2, phone: '+4915112345678', status: 'updated', contactId: ada.id },
      { row: 1, phone: '+4915112345678', status: 'merged', contactId: ada.id },
    ]);
    expect(emulator.server.mock.store.contacts).toEqual([
      expect.objectContaining({
        id: ada.id,
        name: 'Ada L',
        email: 'ada@lovelace.example',
        tags: ['b', 'a'],
        custom_fields: { plan: 'team', region: 'eu' },
      }),
    ]);
  });

  it('fails a row the service refuses, with its code, and goes on', async () => {
    const client = v2();
    const report = await client.contacts.sync([
      { phone: '+4915112340001' }, // a new contact needs a name
      { phone: '+4915112340002', name: 'Bob', email: 'not an email' },
      { phone: '+4915112340003', name: 'Eve' },
    ]);
    expect(report).toMatchObject({ created: 1, failed: 2 });
    const results: ContactSyncResult[] = [];
    for await (const result of client.contacts.sync([{ phone: '+4915112340001' }]).results()) results.push(result);
    expect(results).toEqual([
      {
        row: 1,
        phone: '+4915112340001',
        status: 'failed',
        error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/^POST \/contacts .*name/) },
      },
    ]);
  });

  it('takes any iterable or async iterable of rows, and gives results() again after the run', async () => {
    const client = v2();
    async function* rows() {
      yield { phone: '+4915112340001', name: 'A' };
      yield { phone: '+4915112340002', name: 'B' };
    }
    const run = client.contacts.sync(rows());
    expect(await run).toMatchObject({ total: 2, created: 2 });
    const after: ContactSyncResult[] = [];
    for await (const result of run.results()) after.push(result);
    expect(after.map((r) => [r.row, r.status])).toEqual([
      [1, 'created'],
      [2, 'created'],
    ]);
    expect(await client.contacts.sync(new Set([{ phone: '4915112340001', name: 'A' }]))).toMatchObject({
      unchanged: 1,
    });
  });

  it('refuses what is not a list or options before anything is sent', () => {
    const client = v2();
    expect(() => client.contacts.sync(undefined as never)).toThrow(
      new InvalidArgumentError(
        'contacts.sync: `rows` must be an array (or any iterable) of rows such as { phone, name }, got undefined.',
      ),
    );
    expect(() => client.contacts.sync([], { concurrency: 0 })).toThrow(
      new InvalidArgumentError('contacts.sync: `concurrency` must be an integer from 1 to 256, got 0.'),
    );
    expect(() => client.contacts.sync([], { signal: 'stop' as never })).toThrow(
      new InvalidArgumentError('contacts.sync: `signal` must be an AbortSignal, got "stop".'),
    );
    expect(() => client.contacts.sync([], null as never)).toThrow(
      new InvalidArgumentError('contacts.sync: the options must be an object such as { concurrency: 8 }, got null.'),
    );
    expect(emulator.forwarder.requests).toEqual([]);
  });

  it('keeps at most `concurrency` writes in flight, and none in its last progress event', async () => {
    const client = v2();
    const run = client.contacts.sync(
      Array.from({ length: 60 }, (_, i) => ({ phone: spell(digitsOf(i), i), name: `C ${i}` })),
      { concurrency: 3 },
    );
    const inFlight: number[] = [];
    run.on('progress', (p) => inFlight.push(p.inFlight));
    expect(await run).toMatchObject({ created: 60 });
    expect(Math.max(...inFlight)).toBeLessThanOrEqual(3);
    expect(Math.max(...inFlight)).toBeGreaterThan(0);
    expect(inFlight.at(-1)).toBe(0);
  });
});
