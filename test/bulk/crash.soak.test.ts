import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import type { BulkReport, BulkResult } from '../../src/bulk/index.js';
import { startCountingServer } from '../helpers/counting-server.js';

// kill -9 of a process in the middle of a bulk job, then the same job again: every recipient ends
// with exactly one outcome, none got two messages, and only sends in flight at the kill are unknown.
// And when the journal's log was cut short after the kill, the job is refused: nothing sent again.

const SENDER = fileURLToPath(new URL('./workers/bulk-sender.ts', import.meta.url));
const RECIPIENTS = 3000;
const CONCURRENCY = 16;
const dir = mkdtempSync(join(tmpdir(), 'bizmsg-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runSender(args: object, killWhen?: () => boolean) {
  const child = spawn(process.execPath, ['--import', 'tsx', SENDER, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const watch = killWhen && setInterval(() => killWhen() && child.kill('SIGKILL'), 2);
  return new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
    output?: { report: BulkReport; results: BulkResult[] };
  }>((resolve) =>
    child.on('exit', (code, signal) => {
      clearInterval(watch);
      resolve({
        code,
        signal,
        stderr: err,
        ...(out === '' ? {} : { output: JSON.parse(out) as { report: BulkReport; results: BulkResult[] } }),
      });
    }),
  );
}

it(
  'kill -9 mid-run, then resume: 0 duplicates, one outcome each, unknown no more than were in flight',
  { timeout: 180_000 },
  async () => {
    const server = await startCountingServer(() => ({ kind: 'ok', delayMs: 2 }));
    try {
      const args = {
        baseUrl: server.baseUrl,
        journal: join(dir, 'journal'),
        recipients: RECIPIENTS,
        concurrency: CONCURRENCY,
      };
      const killed = await runSender(args, () => server.total() >= RECIPIENTS / 3);
      expect(killed.signal).toBe('SIGKILL');
      const atKill = server.total();
      expect(atKill).toBeLessThan(RECIPIENTS);

      const resumed = await runSender(args);
      const { report, results } = resumed.output!;
      expect([...server.counts.values()].filter((n) => n > 1)).toEqual([]);
      expect(report.total).toBe(RECIPIENTS);
      expect(report.sent + report.unknown).toBe(RECIPIENTS);
      expect(report.failed + report.skipped).toBe(0);
      expect(new Set(results.map((r) => r.key)).size).toBe(RECIPIENTS);
      // Claimed before the kill and not answered (or answered after it): at most the sends in flight.
      expect(report.unknown).toBeLessThanOrEqual(CONCURRENCY);
      expect(results.filter((r) => r.status === 'unknown').every((r) => r.error?.code === 'INTERRUPTED')).toBe(true);
      // Every number the server never saw was sent by the resumed run; every sent one reached it once.
      const sent = results.filter((r) => r.status === 'sent');
      expect(sent.every((r) => server.counts.get(r.to) === 1)).toBe(true);
      expect(server.total()).toBeGreaterThanOrEqual(report.sent);
      expect(server.total()).toBeLessThanOrEqual(report.sent + report.unknown);
    } finally {
      await server.close();
    }
  },
);

it(
  'kill -9 mid-run with opt-outs, then resume with resendUnknown, then without suppress: no opted-out number is ever sent',
  { timeout: 180_000 },
  async () => {
    const server = await startCountingServer(() => ({ kind: 'ok', delayMs: 2 }));
    try {
      const args = {
        baseUrl: server.baseUrl,
        journal: join(dir, 'suppress-journal'),
        recipients: RECIPIENTS,
        concurrency: CONCURRENCY,
        suppressEvery: 7,
      };
      const optedOut = new Set(
        Array.from({ length: RECIPIENTS }, (_, i) => i)
          .filter((i) => i % 7 === 0)
          .map((i) => `+49151${10_000_000 + i}`),
      );
      const killed = await runSender(args, () => server.total() >= RECIPIENTS / 3);
      expect(killed.signal).toBe('SIGKILL');
      // Resumed with resendUnknown (an unknown row is sent again, a suppressed one never), then a
      // third run without suppress at all: what was recorded as suppressed stays so.
      const resumed = await runSender({ ...args, resendUnknown: true });
      const again = await runSender({ ...args, suppressEvery: undefined, resendUnknown: true });
      for (const { output } of [resumed, again]) {
        const { report, results } = output!;
        expect(report.total).toBe(RECIPIENTS);
        expect(report.suppressed).toBe(optedOut.size);
        expect(report.sent + report.suppressed + report.unknown).toBe(RECIPIENTS);
        const suppressed = results.filter((r) => r.status === 'suppressed');
        expect(new Set(suppressed.map((r) => r.to))).toEqual(optedOut);
        expect(suppressed.every((r) => r.error?.code === 'SUPPRESSED' && r.error.message === 'opted out')).toBe(true);
      }
      // No opted-out number reached the server, and no number reached it twice... but those
      // resendUnknown sent again on purpose, at most the sends in flight at the kill.
      expect([...server.counts.keys()].filter((to) => optedOut.has(to))).toEqual([]);
      expect([...server.counts.values()].filter((n) => n > 1).length).toBeLessThanOrEqual(CONCURRENCY);
      expect(server.counts.size).toBe(RECIPIENTS - optedOut.size);
    } finally {
      await server.close();
    }
  },
);

it(
  'kill -9 mid-run, then the log cut short: the resume is refused naming the journal, and sends nothing',
  { timeout: 180_000 },
  async () => {
    const server = await startCountingServer(() => ({ kind: 'ok', delayMs: 2 }));
    try {
      const journal = join(dir, 'journal-cut');
      const args = { baseUrl: server.baseUrl, journal, recipients: RECIPIENTS, concurrency: CONCURRENCY };
      const killed = await runSender(args, () => server.total() >= RECIPIENTS / 3);
      expect(killed.signal).toBe('SIGKILL');
      const atKill = server.total();
      for (const log of readdirSync(journal).filter((name) => /^\d+\.log$/.test(name))) {
        const file = join(journal, log);
        truncateSync(file, Math.floor(statSync(file).size * 0.6));
      }
      const resumed = await runSender(args);
      expect(resumed.code).not.toBe(0);
      expect(resumed.output).toBeUndefined();
      expect(resumed.stderr).toContain('BulkJournalDamagedError');
      expect(resumed.stderr).toContain(`The journal ${journal} lost or damaged records`);
      expect(server.total()).toBe(atKill);
      expect([...server.counts.values()].filter((n) => n > 1)).toEqual([]);
    } finally {
      await server.close();
    }
  },
);
