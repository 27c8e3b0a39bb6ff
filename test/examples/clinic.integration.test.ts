// examples/clinic/server.ts run as its README says, against the mock over HTTP: the reminders
// sent once across a kill -9 and a restart, a patient's STOP answered and kept on disk (the next
// job holds them back), and the outcomes served as CSV with the statuses the webhooks brought.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Variant2Client } from '../../src/index.js';
import { readCsv } from '../../src/bulk/index.js';
import { LIFECYCLE_MS, startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { REPLIES, templates } from '../../examples/clinic/clinic.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/clinic/', import.meta.url));
/** tsx from this repository, and its tsconfig (its paths point `bizmsg` at the sources): the server runs in a folder of its own. */
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const TSCONFIG = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
const SECRET = 'whsec_clinic';
let mock: MockHttpServer;
let dir: string;
const running = new Set<ChildProcess>();

beforeAll(async () => {
  mock = await startMockHttpServer({ variant: 2, templates });
  mock.mock.clock.stop(); // the test moves time: deliveries come when it says
  dir = mkdtempSync(join(tmpdir(), 'bizmsg-clinic-'));
  copyFileSync(join(EXAMPLE, 'patients.csv'), join(dir, 'patients.csv'));
});
afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The clinic's server for `job`, once it printed `pattern` (its report line), with its webhook URL. */
async function startClinic(job: string, pattern: RegExp): Promise<{ child: ChildProcess; url: string; line: string }> {
  const child = spawn(process.execPath, ['--import', TSX, join(EXAMPLE, 'server.ts'), 'patients.csv', job], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      BIZMSG_API_KEY: mock.apiKey,
      BIZMSG_BASE_URL: mock.baseUrl,
      BIZMSG_WEBHOOK_SECRET: SECRET,
      PORT: '0',
      TSX_TSCONFIG_PATH: TSCONFIG,
    },
  });
  running.add(child);
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  // Generous: tsx compiles the example first, on a loaded 2-core machine.
  const found = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in 60 s; stdout: ${out}; stderr: ${err}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (match !== null && /webhooks: (\S+)/.test(out)) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before ${pattern}; stdout: ${out}; stderr: ${err}`)));
  });
  return { child, url: /webhooks: (\S+)/.exec(out)![1]!, line: found[0] };
}

async function killed(child: ChildProcess): Promise<void> {
  const exit = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exit;
  running.delete(child);
}

it('sends once across a kill -9, answers STOP and holds the patient back, and serves the outcomes', async () => {
  const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
  const first = await startClinic('monday', /monday: .+/);
  expect(first.line).toBe('monday: 3 sent, 0 held back, 1 failed, 0 unknown');
  await client.webhooks.create({
    url: first.url.replace('localhost', '127.0.0.1'),
    events: ['message.received', 'message.delivered'],
    secret: SECRET,
  });
  await mock.mock.clock.advance(LIFECYCLE_MS.delivered); // resolves once the deliveries were answered

  const grace = mock.mock.customer('0044 7700 900125');
  expect((await grace.say('STOP', { timeout: 20_000 })).map((m) => m.text)).toEqual([REPLIES.STOP]);
  expect(readFileSync(join(dir, 'opted-out.txt'), 'utf8')).toBe('+447700900125\n');

  const csv = await (await fetch(first.url.replace('/webhooks', '/outcomes.csv'))).text();
  const rows = [];
  for await (const { row } of readCsv(csv)) rows.push([row.to, row.outcome, row['error.code']]);
  // In the file journal's order (by key), not the CSV's.
  expect(rows.sort()).toEqual([
    ["'+447700900124", 'delivered', ''],
    ["'+447700900124", 'skipped', ''], // Ada's second row
    ["'+447700900125", 'delivered', ''],
    ["'+447700900126", 'delivered', ''],
    ['not a number', 'failed', 'INVALID_PHONE'],
  ]);

  // kill -9, then the same job again: it resumes from the journal and sends nothing.
  await killed(first.child);
  const sentBefore = mock.mock.store.messages.size;
  const again = await startClinic('monday', /monday: .+/);
  expect(again.line).toBe('monday: 3 sent, 0 held back, 1 failed, 0 unknown');
  expect(mock.mock.store.messages.size).toBe(sentBefore);
  await killed(again.child);

  // The next job holds back the patient who sent STOP (the list was kept on disk).
  const tuesday = await startClinic('tuesday', /tuesday: .+/);
  expect(tuesday.line).toBe('tuesday: 2 sent, 1 held back, 1 failed, 0 unknown');
  expect((await grace.lastReply())?.text).toBe(REPLIES.STOP);
  await killed(tuesday.child);
}, 180_000);
