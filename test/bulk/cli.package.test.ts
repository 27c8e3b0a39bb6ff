import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bizmsg as run, useBulkEmulator } from './cli-process.js';

// `bizmsg bulk` from its own process against the emulator over HTTP: the header checked before the
// first send, one send per phone, the report, the exit code, and a second run that resumes.

const emulator = useBulkEmulator({
  order_update: {
    languages: ['en', 'de'],
    body: ['name', 'order_id'],
    buttons: [{ sub_type: 'url', params: ['tracking'] }],
  },
});
const bizmsg = (args: string[]) => run(emulator.server, args);
const sends = () => emulator.server.mock.requests().filter((r) => r.method === 'POST').length;

/** What `bizmsg --version` prints: the version of the package it came in. */
const PACKAGE_VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

/** Every flag of `bizmsg bulk`, each documented by --help on a line of its own. */
const FLAGS = [
  '--csv',
  '--template',
  '--language',
  '--templates',
  '--variant',
  '--account',
  '--journal',
  '--id',
  '--concurrency',
  '--resend-unknown',
  '-h, --help',
  '-v, --version',
];

describe('bizmsg bulk', () => {
  it('stops before the first send when a template parameter has no column', { timeout: 20_000 }, async () => {
    const csv = emulator.file('missing.csv', 'phone,name,order_id\n+4915112345678,Ada,A-1\n');
    const result = await bizmsg(emulator.args(csv));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('has no column "tracking"');
    expect(result.stderr).toContain('Nothing was sent.');
    expect(sends()).toBe(0);
  });

  it(
    'exits 2 when the environment gives no usable key or URL, saying which, and sends nothing',
    { timeout: 30_000 },
    async () => {
      const csv = emulator.file('env.csv', 'phone,name,order_id,tracking\n+4915112345670,Ada,A-1,t1\n');
      const { baseUrl, apiKey } = emulator.server;
      const noKey = await run({ baseUrl, apiKey: '' }, emulator.args(csv));
      expect([noKey.code, noKey.stderr]).toEqual([
        2,
        'bizmsg: No API key: set the BIZMSG_API_KEY environment variable. Nothing was sent.\n',
      ]);
      const badUrl = await run({ baseUrl: 'ftp://example.test', apiKey }, emulator.args(csv));
      expect(badUrl.code).toBe(2);
      expect(badUrl.stderr).toMatch(
        /^bizmsg: The BIZMSG_BASE_URL environment variable must be an http\(s\) URL .* Nothing was sent\.\n$/,
      );
      expect(sends()).toBe(0);
    },
  );

  it(
    'refuses a column named twice, names a CSV it cannot read, and answers --help, sending nothing',
    { timeout: 30_000 },
    async () => {
      const twice = emulator.file(
        'twice.csv',
        'phone,phone,name,order_id,tracking\n+4915112340009,+4915112340010,Ada,A-1,t1\n',
      );
      const repeated = await bizmsg(emulator.args(twice));
      expect([repeated.code, repeated.stderr.split('\n')[0]]).toEqual([
        2,
        `bizmsg: ${twice} names a column twice (phone): each column must have one name. Nothing was sent.`,
      ]);
      const nowhere = join(emulator.dir, 'nowhere.csv');
      const missing = await bizmsg(emulator.args(nowhere));
      expect([missing.code, missing.stderr.split('\n')[0]]).toEqual([
        2,
        `bizmsg: cannot read the CSV ${nowhere}: ENOENT: no such file or directory, open '${nowhere}'. Nothing was sent.`,
      ]);
      const help = await bizmsg(['bulk', '--help']);
      expect([help.code, help.stderr]).toEqual([0, '']);
      expect(help.stdout).toMatch(/^Usage: bizmsg bulk --csv FILE/);
      for (const flag of FLAGS) expect(help.stdout).toMatch(new RegExp(`^ {2}${flag}\\b`, 'm'));
      // The built bin: the build writes the package's version into it (the source run here says `development`).
      const version = spawnSync(process.execPath, ['dist/bulk/cli.js', '--version'], { encoding: 'utf8' });
      expect([version.status, version.stdout, version.stderr]).toEqual([0, `${PACKAGE_VERSION}\n`, '']);
      expect(sends()).toBe(0);
    },
  );

  it(
    'sends each phone once, reports, exits 1 on a failed row, and resumes without sending again',
    { timeout: 30_000 },
    async () => {
      const csv = emulator.file(
        'orders.csv',
        [
          'phone,name,order_id,tracking',
          '+49 151 1234 5678,Ada,A-1,t1',
          '+4915112345679,Grace,A-2,t2',
          '004915112345678,Ada again,A-3,t3',
          '0151 999,Nobody,A-4,t4',
          '+4915112345680,Edsger,A-5,t5',
        ].join('\n'),
      );
      const args = emulator.args(csv, [], 'de');
      const first = await bizmsg(args);
      expect(first.code).toBe(1);
      expect(first.stdout).toContain(
        [
          'bulk job "orders.csv:order_update:de"',
          '  total    5',
          '  sent     3',
          '  failed   1',
          '  unknown  0',
          '  skipped  1',
        ].join('\n'),
      );
      expect(first.stdout).toMatch(
        /failed:\n {2}line 5 {2}0151 999 {2}INVALID_PHONE: to: "0151 999" is not a valid phone number: it starts with 0/,
      );
      const posts = emulator.server.mock.requests().filter((r) => r.method === 'POST');
      expect(posts).toHaveLength(3);
      expect(posts.every((r) => r.path?.endsWith('/messages/template') === true && r.status === 200)).toBe(true);

      const second = await bizmsg(args);
      expect(second.code).toBe(1);
      expect(second.stdout).toContain('  sent     3');
      expect(sends()).toBe(3);
    },
  );
});
