import { describe, expect, it } from 'vitest';
import { fileJournal } from '../../src/bulk/index.js';
import { bizmsg, useBulkEmulator } from './cli-process.js';

// `bizmsg bulk` in a terminal (a pseudo-terminal through `script`) and without one, fed a hostile CSV:
// a journal in use is said before any progress (no bar drawn, the cursor never hidden) and it exits;
// nothing the CSV carries (escape sequences, BEL, C1 controls, bidi controls) reaches the terminal
// as itself, and the cursor is shown again after a run.

const emulator = useBulkEmulator({ order_update: { languages: ['en'], body: ['name'] } });

const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';

/** What `bizmsg bulk` says when the journal of `csv` is in use: its one line. */
const busy = (csv: string) =>
  `bizmsg: The journal ${csv}.journal is in use by another run (of this process or another): a journal serves one run at a time. Nothing was sent; let that run end (await it), then run the job again to resume it.`;

/** What a terminal would act on if the CSV's cells reached it: OSC (title, clipboard), erase line, BEL, C1 CSI, bidi override. */
const HOSTILE = ['\x1b]', '\x1b[2K', '\x07', '\u009b', '\u202e'];

/** A CSV whose phones and names carry terminal sequences: row 2 is sendable, rows 3 to 5 are not. */
function hostileCsv(name: string): string {
  return emulator.file(
    name,
    [
      'phone,name',
      '+4915112340001,"\x1b[2K\x1b]52;c;aGVsbG8=\x07Eve"',
      '\x1b]0;PWNED\x07+4915112340002,Bob',
      '\u009b2J\x1b[2K+4915112340003,Ada',
      '\u202e8765,Ann',
    ].join('\n'),
  );
}

describe('bizmsg bulk in a terminal', () => {
  it(
    'exits 1 within seconds when the journal is in use, saying so before any bar is drawn (the cursor never hidden)',
    { timeout: 60_000 },
    async () => {
      const csv = emulator.file('held.csv', 'phone,name\n+4915112345678,Ada\n');
      const held = fileJournal(`${csv}.journal`);
      await held.open('another run');
      try {
        const result = await bizmsg(emulator.server, emulator.args(csv), { tty: true, killAfterMs: 30_000 });
        expect([result.killed, result.code]).toEqual([false, 1]);
        expect(result.stdout.replaceAll('\r\n', '\n')).toBe(`${busy(csv)}\n`);
      } finally {
        await held.close();
      }
      expect(emulator.server.mock.requests()).toEqual([]);
    },
  );

  it(
    'prints none of the sequences a CSV carries, under a terminal: each is a visible \\u escape',
    { timeout: 60_000 },
    async () => {
      const result = await bizmsg(emulator.server, emulator.args(hostileCsv('tty.csv')), {
        tty: true,
        killAfterMs: 30_000,
      });
      expect([result.killed, result.code]).toEqual([false, 1]);
      for (const sequence of HOSTILE) expect(result.stdout).not.toContain(sequence);
      expect(result.stdout).toContain('line 3  \\u001b]0;PWNED\\u0007+4915112340002  INVALID_PHONE');
      expect(result.stdout).toContain('line 4  \\u009b2J\\u001b[2K+4915112340003  INVALID_PHONE');
      expect(result.stdout).toContain('line 5  \\u202e8765  INVALID_PHONE');
      expect(result.stdout.lastIndexOf(SHOW_CURSOR)).toBeGreaterThan(result.stdout.lastIndexOf(HIDE_CURSOR));
    },
  );
});

describe('bizmsg bulk without a terminal', () => {
  /** Every control character but the line feed. */
  // eslint-disable-next-line no-control-regex -- the control characters are what it looks for
  const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

  it('says the journal is in use as its one line, before any progress line', { timeout: 30_000 }, async () => {
    const csv = emulator.file('held-ci.csv', 'phone,name\n+4915112345678,Ada\n');
    const held = fileJournal(`${csv}.journal`);
    await held.open('another run');
    try {
      const result = await bizmsg(emulator.server, emulator.args(csv), { killAfterMs: 20_000 });
      expect([result.killed, result.code, result.stdout, result.stderr]).toEqual([false, 1, '', `${busy(csv)}\n`]);
    } finally {
      await held.close();
    }
  });

  it('prints no control character of the CSV in the report', { timeout: 30_000 }, async () => {
    const result = await bizmsg(emulator.server, emulator.args(hostileCsv('pipe.csv')));
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(CONTROL);
    expect(result.stderr).not.toMatch(CONTROL);
    expect(result.stdout).toContain(
      [
        'failed:',
        '  line 3  \\u001b]0;PWNED\\u0007+4915112340002  INVALID_PHONE: to: "\\u001b]0;PWNED\\u0007+4915112340002" is not a valid phone number: "\\u001b" is not a digit, space, dash, dot, slash or bracket.',
      ].join('\n'),
    );
  });

  it(
    'prints no control character of a column name it refuses, nor a line break that would forge a line',
    { timeout: 30_000 },
    async () => {
      const csv = emulator.file('header.csv', 'phone,"\x1b]0;PWNED\x07x\n  sent 100",name\n+4915112345678,a,Ada\n');
      const withoutCatalog = ['bulk', '--csv', csv, '--template', 'order_update', '--language', 'en'];
      const result = await bizmsg(emulator.server, withoutCatalog);
      expect(result.code).toBe(2);
      expect(result.stderr).not.toMatch(CONTROL);
      expect(result.stderr.split('\n')[0]).toBe(
        `bizmsg: ${csv} has columns besides phone (\\u001b]0;PWNED\\u0007x\\u000a  sent 100, name): give --templates CATALOG.json so that they are matched to the template's parameters by name. Nothing was sent.`,
      );
    },
  );
});
