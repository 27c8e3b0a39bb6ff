import fc from 'fast-check';
import { expect, it } from 'vitest';
import { Variant2Client, type ContactSyncResult, type ContactSyncRow } from '../../src/index.js';
import { createMockServer } from '../../src/mock/index.js';
import { normalizePhone } from '../../src/shared/phone.js';
import { useMocks } from '../helpers/mock-api.js';
import { expectedFields } from './fixtures.js';

// Any list (numbers in any spelling or none, repeats, rows that are no rows, fields the service
// refuses) against any account: one result per row, a report that adds up, one contact per number
// holding its rows' fields where the row did not fail; and the same list again writes nothing but
// the rows the service refused again.

const mock = createMockServer({ variant: 2, plans: { enterprise: { rateLimit: 1_000_000 } } });
useMocks(mock);

const NUMBERS = ['4915112340001', '4915112340002', '447700900123', '15550100004'];
const spelling = fc
  .tuple(fc.constantFrom(...NUMBERS), fc.integer({ min: 0, max: 4 }))
  .map(
    ([d, k]) =>
      [`+${d}`, d, `00${d}`, `+${d.slice(0, 2)} ${d.slice(2, 5)} ${d.slice(5)}`, `${d.slice(0, 4)}-${d.slice(4)}`][k]!,
  );
const junkPhone = fc.constantFrom('0151 1234 5678', 'call me', '', '+12', '\x1b[2K+4915112340001');
const text = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('', 'Ada', '\u0000\x1b]0;x\x07', 'Zoë 👩‍💻'));
const row = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record(
      {
        phone: fc.oneof({ weight: 5, arbitrary: spelling }, { weight: 1, arbitrary: junkPhone }),
        name: text,
        email: fc.constantFrom('ada@example.com', 'grace@example.com', 'not an email'),
        tags: fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 3 }),
        custom_fields: fc.dictionary(
          fc.constantFrom('plan', 'seats'),
          fc.oneof(fc.string({ maxLength: 3 }), fc.integer()),
        ),
        extra: fc.anything(),
      },
      { requiredKeys: ['phone'] },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(null, 42, 'row', [] as unknown[]) },
);
const seeded = fc.array(
  fc.record({
    number: fc.constantFrom(...NUMBERS),
    name: fc.constantFrom('Old', 'Ada'),
    tags: fc.array(fc.constantFrom('a', 'b'), { maxLength: 2 }),
  }),
  { maxLength: 4 },
);

const LOCAL = new Set(['INVALID_PHONE', 'INVALID_ROW']);
const writes = () => mock.requests().filter((r) => r.method === 'POST' || r.method === 'PUT').length;

async function sync(client: Variant2Client, rows: unknown[], concurrency: number) {
  const run = client.contacts.sync(rows as ContactSyncRow[], { concurrency });
  const results: ContactSyncResult[] = [];
  for await (const result of run.results()) results.push(result);
  return { report: await run, results };
}

it(
  'one result per row, a report that adds up, one contact per number, and nothing written twice',
  { timeout: 120_000 },
  async () => {
    const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl, rateLimit: false });
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { maxLength: 25 }),
        seeded,
        fc.integer({ min: 1, max: 6 }),
        async (rows, seed, concurrency) => {
          mock.reset();
          for (const { number, name, tags } of seed)
            await client.contacts.create({ phone: number, name, tags }).catch(() => undefined);
          const first = await sync(client, rows, concurrency);
          const { total, created, updated, unchanged, failed, merged, aborted } = first.report;
          expect(aborted).toBe(false);
          expect(total).toBe(rows.length);
          expect(created + updated + unchanged + failed + merged).toBe(total);
          expect(first.results.map((r) => r.row).sort((a, b) => a - b)).toEqual(rows.map((_, i) => i + 1));

          const byNumber = new Map<string, (typeof mock.store.contacts)[number]>();
          for (const contact of mock.store.contacts) {
            const digits = normalizePhone(contact.phone, { format: 'digits' });
            expect(byNumber.has(digits)).toBe(false);
            byNumber.set(digits, contact);
          }
          const model = expectedFields(rows.filter((r) => typeof r === 'object' && r !== null && !Array.isArray(r)));
          for (const result of first.results.filter(
            (r) => r.status === 'created' || r.status === 'updated' || r.status === 'unchanged',
          )) {
            const contact = byNumber.get(result.phone.slice(1))!;
            const fields = model.get(result.phone.slice(1))!;
            expect(contact.id).toBe(result.contactId);
            if (fields.name !== undefined) expect(contact.name).toBe(fields.name);
            if (fields.email !== undefined) expect(contact.email).toBe(fields.email);
            if (fields.tags !== undefined) expect(new Set(contact.tags)).toEqual(new Set(fields.tags));
            if (fields.custom_fields !== undefined) expect(contact.custom_fields).toEqual(fields.custom_fields);
          }

          // Again: nothing created or updated; only the rows the service refused are tried (and refused) again.
          const before = writes();
          const second = await sync(client, rows, concurrency);
          expect(second.report).toMatchObject({ created: 0, updated: 0, failed, merged });
          const refused = second.results.filter((r) => r.status === 'failed' && !LOCAL.has(r.error!.code));
          expect(writes() - before).toBe(refused.length);
        },
      ),
      { numRuns: 60 },
    );
  },
);
