import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { normalizePhone } from '../../src/shared/phone.js';
import { spawn } from 'node:child_process';
import { bizmsg, CLI } from './cli-process.js';

// `bizmsg contacts import` from its own process against the emulator over HTTP, with no terminal (a
// CI log) and under one (`script`): one contact per number, columns made fields, the report by CSV
// line, nothing from the CSV reaching the terminal unescaped, an unchanged list written nothing, the
// exit codes, and the progress the rate window holds back.

const SLOW_KEY = 'sk_test_two_per_window';
const dir = mkdtempSync(join(tmpdir(), 'bizmsg-import-'));
let v2: MockHttpServer;
let v1: MockHttpServer;
beforeAll(async () => {
  v2 = await startMockHttpServer({
    variant: 2,
    keys: [{ key: SLOW_KEY, plan: 'slow' }],
    plans: { slow: { rateLimit: 2, window: 2000 } },
  });
  v1 = await startMockHttpServer({ variant: 1 });
});
afterAll(async () => {
  await v2.close();
  await v1.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  v2.mock.reset();
  v1.mock.reset();
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
const writes = (server: MockHttpServer) =>
  server.mock.requests().filter((r) => r.method === 'POST' || r.method === 'PUT').length;
const byNumber = (server: MockHttpServer) =>
  new Map(server.mock.store.contacts.map((c) => [normalizePhone(c.phone, { format: 'digits' }), c]));
/** Any control character but the line break (an escape sequence, a carriage return). */
const CONTROL = /[^\P{Cc}\n]/u;

/** Six rows: Ada twice (two spellings, the later adds an email), Grace with tags and a custom field, junk, and a name that tries to set the terminal's title. */
const CSV = [
  'phone,name,email,tags,plan',
  '+49 151 1234 5678,Ada,,vip;beta,pro',
  '447700900123,Grace,grace@example.com, a ; b ;,',
  'call me,Nobody,,,',
  '0049 151 12345678,Ada L,ada@example.com,,',
  '"+1 555 010 0004","Eve\u001b]0;pwned\u0007",,,',
].join('\n');

describe('bizmsg contacts import', () => {
  it(
    'without a terminal: one contact per number, the columns as fields, failed rows by line, inert output, exit 1; again: nothing written',
    { timeout: 60_000 },
    async () => {
      const csv = file('contacts.csv', CSV);
      const target = { baseUrl: v2.baseUrl, apiKey: v2.apiKey };
      const first = await bizmsg(target, ['contacts', 'import', '--csv', csv, '--variant', '2'], {
        killAfterMs: 50_000,
      });
      expect([first.killed, first.code]).toEqual([false, 1]);
      expect(first.stdout).toBe(
        [
          `contacts import of ${csv}`,
          '  total      5',
          '  created    3',
          '  updated    0',
          '  unchanged  0',
          '  failed     1',
          '  merged     1',
          'failed:',
          '  line 4  call me  INVALID_PHONE: field `phone`: "call me" is not a valid phone number: "c" is not a digit, space, dash, dot, slash or bracket.',
          '',
        ].join('\n'),
      );
      expect(first.stderr.split('\n')[0]).toBe(`bizmsg: importing 5 rows of ${csv}`);
      expect(CONTROL.test(first.stdout + first.stderr)).toBe(false);

      const stored = byNumber(v2);
      expect(stored.size).toBe(3);
      expect(stored.get('4915112345678')).toMatchObject({
        name: 'Ada L',
        email: 'ada@example.com',
        tags: ['vip', 'beta'],
        custom_fields: { plan: 'pro' },
      });
      expect(stored.get('447700900123')).toMatchObject({ name: 'Grace', tags: ['a', 'b'] });
      expect(stored.get('447700900123')!.custom_fields ?? {}).toEqual({});
      expect(stored.get('15550100004')!.name).toBe('Eve\u001b]0;pwned\u0007');

      const before = writes(v2);
      const again = await bizmsg(target, ['contacts', 'import', '--csv', csv, '--variant', '2'], {
        killAfterMs: 50_000,
      });
      expect(again.code).toBe(1);
      expect(again.stdout).toContain(
        '  created    0\n  updated    0\n  unchanged  3\n  failed     1\n  merged     1\n',
      );
      expect(writes(v2)).toBe(before);
    },
  );

  it('exits 0 when nothing failed; Variant 1 by default', { timeout: 30_000 }, async () => {
    const csv = file('clean.csv', 'phone,name\n+4915112340001,A\n4915112340002,B\n');
    const result = await bizmsg({ baseUrl: v1.baseUrl, apiKey: v1.apiKey }, ['contacts', 'import', '--csv', csv]);
    expect([result.code, result.stderr]).toEqual([0, `bizmsg: importing 2 rows of ${csv}\n`]);
    expect(result.stdout).toContain('  created    2\n');
    expect(
      v1.mock
        .requests()
        .filter((r) => r.method === 'POST')
        .map((r) => r.path),
    ).toEqual(['/contacts/create', '/contacts/create']);
  });

  it(
    'refuses a CSV with no phone column, a column named twice, a row over 1 MiB, and bad flags, writing nothing (exit 2)',
    { timeout: 60_000 },
    async () => {
      const target = { baseUrl: v2.baseUrl, apiKey: v2.apiKey };
      const run = (args: string[]) => bizmsg(target, ['contacts', 'import', ...args, '--variant', '2']);
      const noPhone = file('no-phone.csv', 'number,name\n+4915112340001,A\n');
      const twice = file('twice.csv', 'phone,name,name\n+4915112340001,A,B\n');
      const long = file('long.csv', `phone,name\n+4915112340001,${'x'.repeat(1_100_000)}\n`);
      // 20 million empty fields: no field is long, the row is.
      const commas = file('commas.csv', `phone,name\n+4915112340001,${','.repeat(20_000_000)}\n`);
      const results = await Promise.all([
        run(['--csv', noPhone]),
        run(['--csv', twice]),
        run(['--csv', long]),
        run(['--csv', commas]),
        run([]),
        run(['--csv', noPhone, '--concurrency', '0']),
      ]);
      expect(results.map((r) => [r.code, r.stderr.split('\n')[0]])).toEqual([
        [
          2,
          `bizmsg: ${noPhone} has no column "phone" (its columns: number, name); a contact is found by its number. Nothing was sent.`,
        ],
        [2, `bizmsg: ${twice} names a column twice (name): each column must have one name. Nothing was sent.`],
        [2, expect.stringMatching(/^bizmsg: .*long\.csv: the row at line 2 is longer than 1 MiB/)],
        [2, expect.stringMatching(/^bizmsg: .*commas\.csv: the row at line 2 is longer than 1 MiB/)],
        [2, 'bizmsg: --csv is required'],
        [2, 'bizmsg: --concurrency must be a positive whole number'],
      ]);
      expect(v2.mock.requests()).toEqual([]);
      const help = await bizmsg(target, ['contacts', 'import', '--help']);
      expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('bizmsg contacts import --csv FILE')]);
    },
  );

  it(
    'in a terminal, the bar counts the rows and says when it waits for the rate window',
    { timeout: 90_000 },
    async () => {
      const rows = Array.from({ length: 6 }, (_, i) => `+4915112360${String(i).padStart(2, '0')},N${i}`);
      const csv = file('tty.csv', ['phone,name', ...rows].join('\n'));
      const result = await bizmsg(
        { baseUrl: v2.baseUrl, apiKey: SLOW_KEY },
        ['contacts', 'import', '--csv', csv, '--variant', '2'],
        {
          tty: true,
          killAfterMs: 80_000,
        },
      );
      expect([result.killed, result.code]).toEqual([false, 0]);
      expect(result.stdout).toMatch(
        /importing \|[=-]+\| [0-5]\/6 rows · created [0-5] · updated 0 · unchanged 0 · failed 0 · merged 0 · read 0 · waiting for the rate window \(2 requests per window, opens in [12] s\)/,
      );
      expect(result.stdout).toMatch(/\n {2}created {4}6\r?\n/);
      expect(byNumber(v2).size).toBe(6);
    },
  );

  it(
    'killed (kill -9) mid-import, then run again: one contact per number, the rest created, none twice',
    { timeout: 90_000 },
    async () => {
      const rows = Array.from({ length: 10 }, (_, i) => `+4915112370${String(i).padStart(2, '0')},N${i}`);
      const csv = file('crash.csv', ['phone,name', ...rows].join('\n'));
      const args = ['contacts', 'import', '--csv', csv, '--variant', '2'];
      // At 2 requests per 2 s, 10 creates take 10 s and more: killed after a few.
      const killed = await bizmsg({ baseUrl: v2.baseUrl, apiKey: SLOW_KEY }, args, { killAfterMs: 5000 });
      expect(killed.killed).toBe(true);
      const before = byNumber(v2).size;
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(10);
      const again = await bizmsg({ baseUrl: v2.baseUrl, apiKey: v2.apiKey }, args, { killAfterMs: 50_000 });
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`  created    ${10 - before}\n  updated    0\n  unchanged  ${before}\n`);
      expect(byNumber(v2).size).toBe(10);
      expect(v2.mock.store.contacts).toHaveLength(10);
      const taken = v2.mock.requests().filter((r) => r.method === 'POST' && r.status !== undefined && r.status < 300);
      expect(taken).toHaveLength(10);
    },
  );

  it(
    'Ctrl-C: the writes in flight finish, the report says it stopped, exit 1; each created row is in the account',
    { timeout: 60_000 },
    async () => {
      const rows = Array.from({ length: 10 }, (_, i) => `+4915112380${String(i).padStart(2, '0')},N${i}`);
      const csv = file('interrupted.csv', ['phone,name', ...rows].join('\n'));
      const env: NodeJS.ProcessEnv = { ...process.env, BIZMSG_API_KEY: SLOW_KEY, BIZMSG_BASE_URL: v2.baseUrl };
      delete env.BIZMSG_LOG;
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', CLI, 'contacts', 'import', '--csv', csv, '--variant', '2', '--concurrency', '1'],
        {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      let interrupted = false;
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        // Once it has begun, at 2 requests per 2 s, one write at a time: a few rows in. (A write
        // already waiting in the client's pacing is in flight: it still goes.)
        if (!interrupted && stderr.includes('importing 10 rows')) {
          interrupted = true;
          setTimeout(() => child.kill('SIGINT'), 3000).unref();
        }
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(1);
      expect(stdout.split('\n')[0]).toBe(
        `contacts import of ${csv} (stopped before the end: run the same command to go on)`,
      );
      expect(stderr).toContain('bizmsg: stopping: the writes in flight finish (Ctrl-C again quits at once)');
      const created = Number(/\n {2}created {4}(\d+)\n/.exec(stdout)?.[1]);
      expect(created).toBeGreaterThan(0);
      expect(created).toBeLessThan(10);
      expect(byNumber(v2).size).toBe(created);
    },
  );
});
