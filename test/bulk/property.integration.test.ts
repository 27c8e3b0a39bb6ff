import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendBulk, type BulkResult } from '../../src/bulk/index.js';
import { Variant2Client } from '../../src/index.js';
import { normalizePhone } from '../../src/shared/phone.js';
import { startCountingServer } from '../helpers/counting-server.js';

// Any list of recipients, with repeats in other spellings, bad numbers and rows whose message()
// throws: each key gets exactly one outcome, repeats are skipped, every row that cannot be sent is
// failed (a repeat of it too), and no number is sent twice.

type Server = Awaited<ReturnType<typeof startCountingServer>>;
let server: Server;
beforeAll(async () => {
  server = await startCountingServer();
});
afterAll(() => server.close());

const SPELLINGS = [
  '+4915112340001',
  '0049 151 1234 0001',
  '4915112340001',
  '+49 (151) 1234-0002',
  '4915112340002',
  '+4915112340003',
  '+1 555 010 0004',
  '0151 1234',
  'abc',
  '',
  '+12',
];
const THROW = 'THROW';

it('gives each key one outcome and sends no number twice, whatever the list', { timeout: 60_000 }, async () => {
  let job = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(...SPELLINGS, THROW), { maxLength: 30 }),
      fc.integer({ min: 1, max: 6 }),
      async (rows, concurrency) => {
        job += 1;
        server.counts.clear();
        const client = new Variant2Client({ apiKey: 'k', baseUrl: server.baseUrl, rateLimit: false });
        const run = sendBulk(client, {
          id: `property-${job}`,
          recipients: rows,
          concurrency,
          message: (to: string) => {
            if (to === THROW) throw new Error('no message for this one');
            return { to, messaging_account_id: 1, type: 'text' as const, content: { body: 'Hi' } };
          },
        });
        const results: BulkResult[] = [];
        for await (const result of run.results()) results.push(result);
        const report = await run;
        expect(report.total).toBe(rows.length);
        expect(report.sent + report.failed + report.unknown + report.skipped).toBe(rows.length);
        expect(results).toHaveLength(rows.length);
        // A row that cannot be sent is failed on its own, however often it repeats.
        const junk = results.filter((r) => ['INVALID_PHONE', 'INVALID_RECIPIENT'].includes(r.error?.code ?? ''));
        expect(junk.every((r) => r.status === 'failed')).toBe(true);
        expect(junk).toHaveLength(rows.filter((row) => row === THROW || !isPhone(row)).length);
        const outcomes = results.filter((r) => r.status !== 'skipped' && !junk.includes(r));
        const keys = outcomes.map((r) => r.key);
        expect(new Set(keys).size).toBe(keys.length);
        expect(results.filter((r) => r.status === 'skipped').every((r) => keys.includes(r.key))).toBe(true);
        const valid = new Set(rows.filter((row) => row !== THROW && isPhone(row)).map((row) => normalizePhone(row)));
        expect(
          outcomes
            .filter((r) => r.status === 'sent')
            .map((r) => r.key)
            .sort(),
        ).toEqual([...valid].sort());
        expect([...server.counts.values()].every((n) => n === 1)).toBe(true);
        expect(server.counts.size).toBe(valid.size);
      },
    ),
    { numRuns: 40 },
  );
});

function isPhone(value: string): boolean {
  try {
    normalizePhone(value);
    return true;
  } catch {
    return false;
  }
}
