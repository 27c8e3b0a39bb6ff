import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  createStatusTracker,
  fileStatusStore,
  webhookMiddleware,
  type WebhookMiddleware,
} from '../../src/webhooks/index.js';
import { bizmsg, CLI, useBulkEmulator } from './cli-process.js';

// `bizmsg bulk --suppress FILE` and `bizmsg bulk report` as a user runs them, against the emulator:
// an opt-out list (numbers in any spelling, or a CSV's `phone` column) holds its rows back, in this
// run and every later one, counted on the emulator's request journal; the report lists each row
// of a job as CSV a spreadsheet opens (CR LF, formulas made inert) or JSON lines, advanced by the
// statuses a real webhook receiver kept in a fileStatusStore; every mistake is one line and exit
// code 2, nothing sent or read; and nothing a row carries reaches a terminal as itself.

const emulator = useBulkEmulator({ order_update: { languages: ['en'], body: ['name'] } });
beforeEach(() => emulator.server.mock.reset());

/** The numbers the emulator was asked to send to, each once, sorted. */
const sentTo = () => emulator.sends().map(([to]) => to);

/** `bulk --csv CSV ... --suppress FILE` for each of `lists`, and `more`. */
const withSuppress = (csv: string, lists: readonly string[], more: readonly string[] = []) =>
  emulator.args(csv, [...lists.flatMap((list) => ['--suppress', list]), ...more]);

/** The lines of a CSV the report printed: the header, then its rows sorted (a job's rows come in no promised order). */
function csvLines(stdout: string): [string, string[]] {
  expect(stdout.endsWith('\r\n')).toBe(true);
  const [header, ...rows] = stdout.slice(0, -2).split('\r\n');
  for (const row of rows) expect(row).not.toMatch(/(?<!\r)\n/);
  return [header!, rows.sort()];
}

/** The report's lines of counts, as `bizmsg bulk` prints them with some rows suppressed. */
function counts(id: string, [total, sent, failed, unknown, skipped, suppressed]: readonly number[], journal: string) {
  return [
    `bulk job "${id}"`,
    `  total       ${total}`,
    `  sent        ${sent}`,
    `  failed      ${failed}`,
    `  unknown     ${unknown}`,
    `  skipped     ${skipped}`,
    `  suppressed  ${suppressed}`,
    `each row's outcome: bizmsg bulk report --journal ${journal}`,
    '',
  ].join('\n');
}

const HEADER = 'key,to,outcome,messageId,error.code,error.message,sentAt,deliveredAt,readAt,failedAt';

describe('bizmsg bulk --suppress', () => {
  it(
    'holds back the numbers of an opt-out list in any spelling, exits 0, and no later run sends them',
    { timeout: 60_000 },
    async () => {
      const csv = emulator.file(
        'opt.csv',
        [
          'phone,name',
          '+4915112341001,Ada',
          '+4915112341002,Bob',
          '+49 (151) 1234-1003,Cy',
          '+4915112341004,Dee',
          '+49.151.1234.1005,Eve',
        ].join('\n'),
      );
      // A BOM, CR LF, a comment, blank lines, spaces around: each number spelled another way than in the CSV.
      const list = emulator.file(
        'opted-out.txt',
        '\uFEFF# said STOP\r\n+49 151 1234 1002\r\n\r\n  0049 151 12341003  \r\n(+49) 151-1234-1005\r\n+4915199999999\r\n',
      );
      const journal = `${csv}.journal`;
      const first = await bizmsg(emulator.server, withSuppress(csv, [list]));
      expect([first.code, first.stdout]).toEqual([0, counts('opt.csv:order_update:en', [5, 2, 0, 0, 0, 3], journal)]);
      expect(emulator.sends().sort()).toEqual([
        ['+4915112341001', 200],
        ['+4915112341004', 200],
      ]);

      // The same command again (a resume), then without the list, then with --resend-unknown: nothing more is sent.
      for (const args of [withSuppress(csv, [list]), emulator.args(csv), emulator.args(csv, ['--resend-unknown'])]) {
        emulator.server.mock.reset();
        const again = await bizmsg(emulator.server, args);
        expect([again.code, again.stdout]).toEqual([0, counts('opt.csv:order_update:en', [5, 2, 0, 0, 0, 3], journal)]);
        expect(sentTo()).toEqual([]);
      }

      // The journal holds them as suppressed, with the reason.
      const report = await bizmsg(emulator.server, ['bulk', 'report', '--journal', journal, '--format', 'json']);
      expect([report.code, report.stderr]).toEqual([0, '']);
      expect(report.stdout.split('\n').sort()).toEqual([
        '',
        '{"key":"+4915112341001","to":"+4915112341001","outcome":"sent","messageId":"msg_1"}',
        '{"key":"+4915112341002","to":"+4915112341002","outcome":"suppressed","error":{"code":"SUPPRESSED","message":"opted out"}}',
        '{"key":"+4915112341003","to":"+4915112341003","outcome":"suppressed","error":{"code":"SUPPRESSED","message":"opted out"}}',
        '{"key":"+4915112341004","to":"+4915112341004","outcome":"sent","messageId":"msg_2"}',
        '{"key":"+4915112341005","to":"+4915112341005","outcome":"suppressed","error":{"code":"SUPPRESSED","message":"opted out"}}',
      ]);
    },
  );

  it('reads the phone column of a CSV, and a CSV of that one column, given twice', { timeout: 30_000 }, async () => {
    const csv = emulator.file(
      'opt-csv.csv',
      ['phone,name', '+4915112342001,Ada', '+4915112342002,Bob', '+4915112342003,Cy', '+4915112342004,Dee'].join('\n'),
    );
    const crm = emulator.file(
      'crm-export.csv',
      'name,"phone",note\r\nBob,+49 151 1234 2002,"said ""STOP"", by SMS"\r\nNo number,,\r\n',
    );
    const single = emulator.file('stop-replies.csv', 'phone\n"+49 151 1234 2003"\n');
    const result = await bizmsg(emulator.server, withSuppress(csv, [crm, single]));
    expect([result.code, result.stdout]).toEqual([
      0,
      counts('opt-csv.csv:order_update:en', [4, 2, 0, 0, 0, 2], `${csv}.journal`),
    ]);
    expect(sentTo().sort()).toEqual(['+4915112342001', '+4915112342004']);
  });

  it('refuses a list with a line that is no number, naming it: exit 2, nothing sent or recorded', async () => {
    const csv = emulator.file('bad-list.csv', 'phone,name\n+4915112343001,Ada\n+4915112343002,Bob\n');
    const good = emulator.file('good.txt', '+4915112343001\n');
    const typo = emulator.file('typo.txt', '+4915112343002\nSTOP\n');
    const national = emulator.file('national.csv', 'phone,name\n+4915112343002,Bob\n0151 2345,Cy\n');
    for (const [list, line] of [
      [typo, 'line 2 is no phone number (STOP)'],
      [national, 'line 3 is no phone number (0151 2345)'],
    ] as const) {
      const result = await bizmsg(emulator.server, withSuppress(csv, [good, list]));
      expect([result.code, result.stdout, result.stderr]).toEqual([
        2,
        '',
        `bizmsg: --suppress ${list}: ${line}: fix or remove it. Nothing was sent.\n`,
      ]);
    }
    expect(emulator.server.mock.requests()).toEqual([]);
    expect(existsSync(`${csv}.journal`)).toBe(false);
  });

  it('says an opt-out list that is not there, or not named, before anything is sent (exit 2)', async () => {
    const csv = emulator.file('no-list.csv', 'phone,name\n+4915112344001,Ada\n');
    const missing = join(emulator.dir, 'opted-out-missing.txt');
    const result = await bizmsg(emulator.server, withSuppress(csv, [missing]));
    expect([result.code, result.stdout, result.stderr]).toEqual([
      2,
      '',
      `bizmsg: --suppress ${missing}: ENOENT: no such file or directory, open '${missing}'. Nothing was sent.\n`,
    ]);
    const unnamed = await bizmsg(emulator.server, withSuppress(csv, ['']));
    expect([unnamed.code, unnamed.stderr.split('\n')[0]]).toEqual([2, 'bizmsg: --suppress needs a file']);
    expect(emulator.server.mock.requests()).toEqual([]);
    expect(existsSync(`${csv}.journal`)).toBe(false);
  });
});

describe('bizmsg bulk report', () => {
  it(
    'prints each row as CSV (CR LF, formulas made inert) and as JSON lines, inert in a terminal, quiet to a closed pipe',
    { timeout: 60_000 },
    async () => {
      const csv = emulator.file(
        'mixed.csv',
        [
          'phone,name',
          '+4915112345001,Ada', // 2: answered 500: unknown
          '+49 151 1234 5002,Bob', // 3: sent
          '"=HYPERLINK(""http://x"",""y"")",Cy', // 4: failed
          '+4915112345002,Bob again', // 5: a repeat of line 3: skipped
          '@SUM(1),Dee', // 6: failed
          '-5,Eve', // 7: failed
          '\x1b]0;PWNED\x07+491,Fay', // 8: failed, an escape sequence in it
          '+4915112345003,Gus', // 9: suppressed
          '+4915112345004,Hal', // 10: sent
        ].join('\n'),
      );
      const list = emulator.file('mixed-opted-out.txt', '+4915112345003\n');
      emulator.server.mock.inject({ route: 'POST /messages/template', status: 500, times: 1 });
      const run = await bizmsg(emulator.server, withSuppress(csv, [list], ['--concurrency', '1']));
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('\n  suppressed  1\n');
      const journal = `${csv}.journal`;

      const invalid = (phone: string, why: string) =>
        `INVALID_PHONE,"to: ""${phone}"" is not a valid phone number: ${why}"`;
      const notDigit = (char: string) => `""${char}"" is not a digit, space, dash, dot, slash or bracket.`;
      const rows = [
        `line 4,"'=HYPERLINK(""http://x"",""y"")",failed,,${invalid('=HYPERLINK(\\""http://x\\"",\\""y\\"")', notDigit('='))},,,,`,
        `line 6,'@SUM(1),failed,,${invalid('@SUM(1)', notDigit('@'))},,,,`,
        `line 7,'-5,failed,,${invalid('-5', 'it has 1 digits, not 8 to 15.')},,,,`,
        `line 8,\x1b]0;PWNED\x07+491,failed,,${invalid('\\u001b]0;PWNED\\u0007+491', notDigit('\\u001b'))},,,,`,
        "'+4915112345001,'+4915112345001,unknown,,INTERNAL_ERROR,POST /messages/template failed with 500 INTERNAL_ERROR: Injected fault: 500. (the request may have been processed; it was not retried to avoid a duplicate),,,,",
        "'+4915112345002,'+4915112345002,sent,msg_1,,,,,,",
        "'+4915112345002,'+4915112345002,skipped,,,,,,,",
        "'+4915112345003,'+4915112345003,suppressed,,SUPPRESSED,opted out,,,,",
        "'+4915112345004,'+4915112345004,sent,msg_2,,,,,,",
      ];
      const report = await bizmsg(emulator.server, ['bulk', 'report', '--journal', journal]);
      expect([report.code, report.stderr]).toEqual([0, '']);
      expect(csvLines(report.stdout)).toEqual([HEADER, [...rows].sort()]);

      // --id of the job, --format json: one JSON object a line, each value as it is.
      const json = await bizmsg(emulator.server, [
        'bulk',
        'report',
        '--journal',
        journal,
        '--id',
        'mixed.csv:order_update:en',
        '--format',
        'json',
      ]);
      expect([json.code, json.stderr]).toEqual([0, '']);
      const lines = json.stdout.split('\n');
      expect(lines.pop()).toBe('');
      expect(lines.map((line) => JSON.parse(line) as unknown)).toHaveLength(9);
      expect(lines.sort()).toEqual(
        [
          '{"key":"+4915112345001","to":"+4915112345001","outcome":"unknown","error":{"code":"INTERNAL_ERROR","message":"POST /messages/template failed with 500 INTERNAL_ERROR: Injected fault: 500. (the request may have been processed; it was not retried to avoid a duplicate)"}}',
          '{"key":"+4915112345002","to":"+4915112345002","outcome":"sent","messageId":"msg_1"}',
          '{"key":"+4915112345002","to":"+4915112345002","outcome":"skipped"}',
          '{"key":"+4915112345003","to":"+4915112345003","outcome":"suppressed","error":{"code":"SUPPRESSED","message":"opted out"}}',
          '{"key":"+4915112345004","to":"+4915112345004","outcome":"sent","messageId":"msg_2"}',
          '{"key":"line 4","to":"=HYPERLINK(\\"http://x\\",\\"y\\")","outcome":"failed","error":{"code":"INVALID_PHONE","message":"to: \\"=HYPERLINK(\\\\\\"http://x\\\\\\",\\\\\\"y\\\\\\")\\" is not a valid phone number: \\"=\\" is not a digit, space, dash, dot, slash or bracket."}}',
          '{"key":"line 6","to":"@SUM(1)","outcome":"failed","error":{"code":"INVALID_PHONE","message":"to: \\"@SUM(1)\\" is not a valid phone number: \\"@\\" is not a digit, space, dash, dot, slash or bracket."}}',
          '{"key":"line 7","to":"-5","outcome":"failed","error":{"code":"INVALID_PHONE","message":"to: \\"-5\\" is not a valid phone number: it has 1 digits, not 8 to 15."}}',
          '{"key":"line 8","to":"\\u001b]0;PWNED\\u0007+491","outcome":"failed","error":{"code":"INVALID_PHONE","message":"to: \\"\\\\u001b]0;PWNED\\\\u0007+491\\" is not a valid phone number: \\"\\\\u001b\\" is not a digit, space, dash, dot, slash or bracket."}}',
        ].sort(),
      );

      // In a terminal: the same lines (the terminal's CR LF), every control character a visible \u escape.
      const tty = await bizmsg(emulator.server, ['bulk', 'report', '--journal', journal], {
        tty: true,
        killAfterMs: 30_000,
      });
      expect([tty.killed, tty.code]).toEqual([false, 0]);
      // eslint-disable-next-line no-control-regex -- the control characters are what it looks for
      expect(tty.stdout).not.toMatch(/[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f]/);
      expect(tty.stdout).toBe(report.stdout.replaceAll('\x1b', '\\u001b').replaceAll('\x07', '\\u0007'));

      // A reader that has gone (`| head`): the report stops quietly, no stack trace.
      for (const format of ['csv', 'json'])
        expect(await closedPipe(['bulk', 'report', '--journal', journal, '--format', format])).toEqual({
          code: 0,
          stderr: '',
        });
    },
  );

  it(
    'advances each outcome by the statuses a webhook receiver kept in a fileStatusStore, with their times',
    { timeout: 60_000 },
    async () => {
      const { mock } = emulator.server;
      const statuses = join(emulator.dir, 'statuses');
      const store = fileStatusStore(statuses);
      const tracker = createStatusTracker({ store });
      const receiver = await listen(webhookMiddleware({ secret: 'whsec_report', tracker }));
      try {
        mock.registerWebhook({
          url: `${receiver.origin}/webhooks`,
          events: ['message.sent', 'message.delivered', 'message.read', 'message.failed'],
          secret: 'whsec_report',
        });
        // Frozen, the clock moves only by `advance`: every time is known, and no message moves on by itself.
        mock.clock.stop();
        const start = mock.clock.now();
        const at = (ms: number) => new Date(start + ms).toISOString();
        const csv = emulator.file(
          'statuses.csv',
          ['phone,name', ...[1, 2, 3, 4, 5].map((i) => `+491511234600${i},N${i}`)].join('\n'),
        );
        const list = emulator.file('statuses-opted-out.txt', '+4915112346005\n');
        const run = await bizmsg(emulator.server, withSuppress(csv, [list], ['--concurrency', '1']));
        expect(run.stdout).toContain('  sent        4\n');

        await mock.clock.advance(300);
        mock.setMessageStatus('msg_1', { status: 'delivered' });
        await mock.clock.advance(200);
        mock.setMessageStatus('msg_2', { status: 'read' });
        await mock.clock.advance(200);
        mock.setMessageStatus('msg_3', {
          status: 'failed',
          error: { code: 'UNDELIVERABLE', message: '=HYPERLINK("https://evil.example","click")' },
        });
        const expected = { msg_1: 'delivered', msg_2: 'read', msg_3: 'failed', msg_4: 'sent' } as const;
        for (const [id, status] of Object.entries(expected))
          await until(async () => (await tracker.get(id))?.status === status, `${id} ${status} in the tracker`);

        // The app has the folder: the report says so (exit 1), and reads it once the app let go.
        const busy = await bizmsg(emulator.server, [
          'bulk',
          'report',
          '--journal',
          `${csv}.journal`,
          '--statuses',
          statuses,
        ]);
        expect([busy.code, busy.stdout]).toEqual([1, '']);
        expect(busy.stderr).toBe(
          `bizmsg: The status store at ${statuses} is open in another process (or another fileStatusStore of this one): a folder serves one process at a time. Close the other (store.close() or tracker.close()) or let it exit, then try again; for several processes at once use redisStatusStore from bizmsg/redis.\n`,
        );
        await tracker.close();
        await store.close();

        const report = await bizmsg(emulator.server, [
          'bulk',
          'report',
          '--journal',
          `${csv}.journal`,
          '--statuses',
          statuses,
        ]);
        expect([report.code, report.stderr]).toEqual([0, '']);
        expect(csvLines(report.stdout)).toEqual([
          HEADER,
          [
            `'+4915112346001,'+4915112346001,delivered,msg_1,,,${at(0)},${at(300)},,`,
            `'+4915112346002,'+4915112346002,read,msg_2,,,${at(0)},${at(500)},${at(500)},`,
            `'+4915112346003,'+4915112346003,failed,msg_3,UNDELIVERABLE,"'=HYPERLINK(""https://evil.example"",""click"")",${at(0)},,,${at(700)}`,
            `'+4915112346004,'+4915112346004,sent,msg_4,,,${at(0)},,,`,
            "'+4915112346005,'+4915112346005,suppressed,,SUPPRESSED,opted out,,,,",
          ],
        ]);
        const json = await bizmsg(emulator.server, [
          'bulk',
          'report',
          '--journal',
          `${csv}.journal`,
          '--statuses',
          statuses,
          '--format',
          'json',
        ]);
        expect(json.stdout.split('\n')).toContain(
          JSON.stringify({
            key: '+4915112346003',
            to: '+4915112346003',
            outcome: 'failed',
            messageId: 'msg_3',
            error: { code: 'UNDELIVERABLE', message: '=HYPERLINK("https://evil.example","click")' },
            sentAt: at(0),
            failedAt: at(700),
          }),
        );
      } finally {
        await tracker.close();
        await store.close();
        await receiver.close();
      }
    },
  );

  it(
    'refuses a wrong --id, naming both, and folders that are not there or not what they are said to be (exit 2)',
    {
      timeout: 60_000,
    },
    async () => {
      const csv = emulator.file('refusals.csv', 'phone,name\n+4915112347001,Ada\n');
      const journal = `${csv}.journal`;
      expect((await bizmsg(emulator.server, emulator.args(csv))).code).toBe(0);
      const report = (...args: string[]) => bizmsg(emulator.server, ['bulk', 'report', ...args]);
      const refused = (stderr: string) => ({ code: 2, stdout: '', stderr: `bizmsg: ${stderr}\n` });
      const ended = ({ code, stdout, stderr }: { code: number | null; stdout: string; stderr: string }) => ({
        code,
        stdout,
        stderr,
      });

      expect(ended(await report('--journal', journal, '--id', 'refusals.csv:welcome:en'))).toEqual(
        refused(
          `--id refusals.csv:welcome:en: the journal ${journal} holds bulk job "refusals.csv:order_update:en", not "refusals.csv:welcome:en" (without --id, the report is of the job the journal holds). Nothing was read.`,
        ),
      );
      const missing = join(emulator.dir, 'missing.journal');
      expect(ended(await report('--journal', missing))).toEqual(
        refused(`--journal: there is no folder ${missing}. Nothing was read.`),
      );
      expect(existsSync(missing)).toBe(false);
      const statusesMissing = join(emulator.dir, 'missing-statuses');
      expect(ended(await report('--journal', journal, '--statuses', statusesMissing))).toEqual(
        refused(`--statuses: there is no folder ${statusesMissing}. Nothing was read.`),
      );
      expect(existsSync(statusesMissing)).toBe(false);

      // A folder given by mistake is left as it was: opening it would have made it a journal or a store.
      const documents = join(emulator.dir, 'documents');
      mkdirSync(documents);
      writeFileSync(join(documents, 'notes.txt'), 'mine');
      expect(ended(await report('--journal', documents))).toEqual(
        refused(
          `--journal ${documents} is not the journal of a bulk job (the folder bizmsg bulk names at the end of its report). Nothing was read.`,
        ),
      );
      for (const folder of [documents, journal])
        expect(ended(await report('--journal', journal, '--statuses', folder))).toEqual(
          refused(
            `--statuses ${folder} is not the folder of a fileStatusStore (the one the app's webhook receiver keeps its statuses in). Nothing was read.`,
          ),
        );
      expect(readdirSync(documents)).toEqual(['notes.txt']);

      // Mistakes in the command line itself: said with the usage.
      for (const [args, said] of [
        [['--journal', journal, '--format', 'xlsx'], '--format must be csv or json'],
        [['--format', 'csv'], '--journal is required'],
      ] as const) {
        const result = await report(...args);
        expect([result.code, result.stdout]).toEqual([2, '']);
        expect(result.stderr).toMatch(new RegExp(`^bizmsg: ${said}\nUsage: bizmsg bulk `));
        expect(result.stderr).toContain(
          '\n       bizmsg bulk report --journal DIR [--id JOB] [--statuses DIR] [--format csv|json]\n',
        );
      }
    },
  );

  it('is in the usage, with --suppress', async () => {
    const help = await bizmsg(emulator.server, ['--help']);
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toContain(
      '       bizmsg bulk report --journal DIR [--id JOB] [--statuses DIR] [--format csv|json]\n',
    );
    expect(help.stdout).toMatch(/\n {2}--suppress FILE {7}numbers never to send to \(opted out\)/);
    expect(help.stdout).toContain('\nbizmsg bulk report\n');
  });
});

/** `bizmsg ...args` with its stdout closed as soon as it starts (a reader that has gone): its exit code and stderr. */
function closedPipe(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

/** A node:http server on a loopback port answering with `middleware`. */
async function listen(middleware: WebhookMiddleware) {
  const server: Server = createServer((req, res) => void middleware(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Resolves once `check` holds; fails naming `what` if it does not within 20 s (a loaded machine's bound, not a wait). */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
