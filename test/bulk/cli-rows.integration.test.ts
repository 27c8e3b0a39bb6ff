import { beforeEach, describe, expect, it } from 'vitest';
import { bizmsg, useBulkEmulator } from './cli-process.js';

// What `bizmsg bulk` makes of each row, counted on the emulator's request journal: every unsendable
// row failed and named by its CSV line (junk repeated is still a row), and `--resend-unknown`
// sending the unknown rows again exactly once. A row of 600 MB: cli-memory.soak.test.ts.

const emulator = useBulkEmulator({ order_update: { languages: ['en'], body: ['name'] } });
beforeEach(() => emulator.server.mock.reset());

describe('bizmsg bulk, row by row', () => {
  it(
    'fails every row whose phone is empty or invalid, repeats included, and lists each by its CSV line',
    { timeout: 30_000 },
    async () => {
      const csv = emulator.file(
        'junk.csv',
        [
          'phone,name', // line 1
          '+4915112340001,Ada', // 2
          'n/a,Bob', // 3
          '', // 4: an empty line is no row
          'n/a,Cy', // 5
          ',Dee', // 6
          '"0151 555","Eve', // 7: a national number, and a name over two lines
          'Smith"', // 8
          ',Fay', // 9
          '+4915112340003,', // 10: no name
          '+49 151 1234 0001,Ada again', // 11: a repeat of line 2
        ].join('\n'),
      );
      const result = await bizmsg(emulator.server, emulator.args(csv));
      expect(result.code).toBe(1);
      expect(result.stdout.split('\n')).toEqual([
        'bulk job "junk.csv:order_update:en"',
        '  total    8',
        '  sent     1',
        '  failed   6',
        '  unknown  0',
        '  skipped  1',
        'failed:',
        '  line 3  n/a  INVALID_PHONE: to: "n/a" is not a valid phone number: "n" is not a digit, space, dash, dot, slash or bracket.',
        '  line 5  n/a  INVALID_PHONE: to: "n/a" is not a valid phone number: "n" is not a digit, space, dash, dot, slash or bracket.',
        '  line 6  (no phone)  INVALID_PHONE: to: "" is not a valid phone number: it has 0 digits, not 8 to 15.',
        '  line 7  0151 555  INVALID_PHONE: to: "0151 555" is not a valid phone number: it starts with 0; write a national number with its country code (+49 151…).',
        '  line 9  (no phone)  INVALID_PHONE: to: "" is not a valid phone number: it has 0 digits, not 8 to 15.',
        expect.stringMatching(/^ {2}line 10 {2}\+4915112340003 {2}INVALID_RECIPIENT: .*parameter "name" is empty\.$/),
        `each row's outcome: bizmsg bulk report --journal ${csv}.journal`,
        '',
      ]);
      expect(emulator.sends()).toEqual([['+4915112340001', 200]]);
    },
  );

  it('names a row the service refused by its CSV line', { timeout: 30_000 }, async () => {
    const csv = emulator.file('refused.csv', 'phone,name\n\n\n+4915112340011,Ada\n+4915112340012,Bob\n');
    emulator.server.mock.inject({ route: 'POST /messages/template', status: 400, code: 'VALIDATION_ERROR', times: 1 });
    const result = await bizmsg(emulator.server, emulator.args(csv, ['--concurrency', '1']));
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/\nfailed:\n {2}line 4 {2}\+4915112340011 {2}VALIDATION_ERROR: /);
    expect(emulator.sends()).toEqual([
      ['+4915112340011', 400],
      ['+4915112340012', 200],
    ]);
  });

  it(
    'sends the unknown rows again with --resend-unknown, each once, and never again',
    { timeout: 60_000 },
    async () => {
      const phones = Array.from({ length: 6 }, (_, i) => `+49151123500${i}`);
      const csv = emulator.file(
        'unknown.csv',
        ['phone,name', ...phones.map((phone, i) => `${phone},N${i}`)].join('\n'),
      );
      // The first two sends are answered 500: they may have been processed, so they are `unknown`.
      emulator.server.mock.inject({ route: 'POST /messages/template', status: 500, times: 2 });
      const first = await bizmsg(emulator.server, emulator.args(csv));
      expect(first.stdout).toContain('  sent     4\n  failed   0\n  unknown  2\n');
      const unknown = emulator
        .sends()
        .filter(([, status]) => status === 500)
        .map(([to]) => to);
      expect(unknown).toHaveLength(2);
      const lines = unknown.map((to) => `line ${phones.indexOf(to) + 2}  ${to}  INTERNAL_ERROR`);
      for (const line of lines) expect(first.stdout).toContain(line);
      expect(first.stdout).toContain('--resend-unknown sends them again, once');

      emulator.server.mock.reset();
      const again = await bizmsg(emulator.server, emulator.args(csv));
      expect(again.stdout).toContain('  unknown  2\n');
      expect(emulator.sends()).toEqual([]);

      const resent = await bizmsg(emulator.server, emulator.args(csv, ['--resend-unknown']));
      expect(resent.code).toBe(0);
      expect(resent.stdout).toContain('  total    6\n  sent     6\n  failed   0\n  unknown  0\n  skipped  0');
      expect(emulator.sends().sort()).toEqual(unknown.map((to) => [to, 200]).sort());

      emulator.server.mock.reset();
      const once = await bizmsg(emulator.server, emulator.args(csv, ['--resend-unknown']));
      expect(once.stdout).toContain('  sent     6\n');
      expect(emulator.sends()).toEqual([]);
    },
  );
});
