import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { startCountingServer } from '../helpers/counting-server.js';

// A power cut loses what was not synced. Without cutting the power, the order of the system calls
// shows it: under strace, every recipient's claim is written to LevelDB's log, that log is synced,
// then the seal is written, and only then does the request carrying its number leave. The same
// trace counts the syncs: one per group of writes, not one per write.

const SENDER = fileURLToPath(new URL('./workers/bulk-sender.ts', import.meta.url));
const RECIPIENTS = 60;
const dir = mkdtempSync(join(tmpdir(), 'bizmsg-durability-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function hasStrace(): boolean {
  try {
    execFileSync('strace', ['-o', '/dev/null', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** One traced call: where it started and ended in the trace, its call, the file it used, what it wrote. */
interface Call {
  readonly start: number;
  end: number;
  readonly name: string;
  readonly file: string;
  readonly text: string;
}

/** The calls of an `strace -f -y` trace, a call cut in two by another thread's joined again. */
function parseTrace(trace: string): Call[] {
  const calls: Call[] = [];
  const unfinished = new Map<string, Call>();
  trace.split('\n').forEach((line, index) => {
    const resumed = /^(\d+)\s+<\.\.\. \w+ resumed>/.exec(line);
    if (resumed !== null) {
      const call = unfinished.get(resumed[1]!);
      if (call !== undefined) call.end = index;
      unfinished.delete(resumed[1]!);
      return;
    }
    const match = /^(\d+)\s+(\w+)\(\d+<([^>]*)>(.*)$/.exec(line);
    if (match === null) return;
    const call: Call = { start: index, end: index, name: match[2]!, file: match[3]!, text: match[4]! };
    calls.push(call);
    if (line.endsWith('<unfinished ...>')) unfinished.set(match[1]!, call);
  });
  return calls;
}

it.skipIf(!hasStrace())(
  'every claim is synced, then sealed, before the request carrying its number leaves; syncs are grouped',
  { timeout: 60_000 },
  async () => {
    const server = await startCountingServer(() => ({ kind: 'ok', delayMs: 2 }));
    const traceFile = join(dir, 'trace.txt');
    try {
      const args = JSON.stringify({
        baseUrl: server.baseUrl,
        journal: join(dir, 'journal'),
        recipients: RECIPIENTS,
        concurrency: 8,
      });
      const child = spawn(
        'strace',
        [
          '-f',
          '-y',
          '-s',
          '4000',
          '-e',
          'trace=write,writev,pwrite64,fsync,fdatasync,sendto,sendmsg',
          '-o',
          traceFile,
        ].concat([process.execPath, '--import', 'tsx', SENDER, args]),
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
      expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
      expect(server.total()).toBe(RECIPIENTS);
    } finally {
      await server.close();
    }
    const calls = parseTrace(readFileSync(traceFile, 'utf8'));
    const isSync = (call: Call) => call.name === 'fdatasync' || call.name === 'fsync';
    const logSyncs = calls.filter((call) => isSync(call) && /\/\d+\.log$/.test(call.file));
    const sealWrites = calls.filter((call) => call.file.endsWith('/bizmsg-seal') && call.name === 'pwrite64');
    const sealSyncs = calls.filter((call) => isSync(call) && call.file.endsWith('/bizmsg-seal'));
    const claims = new Map<string, number>();
    for (const call of calls.filter((c) => /\/\d+\.log$/.test(c.file) && c.name === 'write')) {
      for (const [, phone] of call.text.matchAll(/\{\\"to\\":\\"(\+\d+)\\",\\"status\\":\\"claimed\\"/g))
        if (!claims.has(phone!)) claims.set(phone!, call.start);
    }
    const sends = new Map<string, number>();
    for (const call of calls.filter((c) => c.file.startsWith('socket:') || c.file.startsWith('TCP'))) {
      for (const [, phone] of call.text.matchAll(/\\"to\\":\\"(\+\d+)\\"/g))
        if (!sends.has(phone!)) sends.set(phone!, call.start);
    }
    expect(claims.size).toBe(RECIPIENTS);
    expect(sends.size).toBe(RECIPIENTS);
    for (const [phone, sent] of sends) {
      const claimed = claims.get(phone)!;
      // The first sync of the log that began after the claim was written, then the seal's next write.
      const logSync = logSyncs.filter((call) => call.start > claimed).sort((a, b) => a.end - b.end)[0];
      const sealed = logSync && sealWrites.find((call) => call.start > logSync.end);
      expect({ phone, synced: sealed !== undefined && sealed.end < sent }).toEqual({ phone, synced: true });
    }
    // Group commit: far fewer syncs than writes (a claim and an outcome per recipient).
    expect(logSyncs.length).toBeLessThan(RECIPIENTS);
    console.log(
      `durability: ${RECIPIENTS} recipients, ${2 * RECIPIENTS + 1} journal writes, ${logSyncs.length} LevelDB log syncs, ${sealWrites.length} seal writes, ${sealSyncs.length} seal syncs`,
    );
  },
);
