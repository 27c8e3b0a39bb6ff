import { describe, expect, it } from 'vitest';
import { bizmsg, useBulkEmulator } from './cli-process.js';

// The progress `bizmsg bulk` shows on stderr while the rate window holds it back: without a terminal
// (a CI log) a line to begin, a line every few seconds and a line when it starts waiting for the
// window; in a terminal, the bar says so. The emulator's key allows 2 requests per 2-second window.

const KEY = 'sk_test_two_per_window';
const emulator = useBulkEmulator(
  { order_update: { languages: ['en'], body: ['name'] } },
  { keys: [{ key: KEY, plan: 'slow' }], plans: { slow: { rateLimit: 2, window: 2000 } } },
);
const slowKey = () => ({ baseUrl: emulator.server.baseUrl, apiKey: KEY });

/** A CSV of `count` numbers: at 2 per window, 8 wait for the window at least 3 times (6 s and more), 12 at least 5 (10 s). */
function csvOf(name: string, count = 8): string {
  const rows = Array.from({ length: count }, (_, i) => `+4915112360${String(i).padStart(2, '0')},N${i}`);
  return emulator.file(name, ['phone,name', ...rows].join('\n'));
}

const sent = () => emulator.server.mock.requests().filter((r) => r.method === 'POST' && r.status === 200).length;

describe('bizmsg bulk progress', () => {
  it(
    'without a terminal, writes a line to begin, a progress line every few seconds, and says when it waits for the rate window',
    { timeout: 90_000 },
    async () => {
      // 12 rows: the run outlasts two of the 5-second progress ticks however its windows fall.
      const csv = csvOf('ci.csv', 12);
      const result = await bizmsg(slowKey(), emulator.args(csv), { killAfterMs: 80_000 });
      expect([result.killed, result.code]).toEqual([false, 0]);
      expect(result.stdout).toContain('  total    12\n  sent     12\n');
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines[0]).toBe(`bizmsg: sending 12 rows of ${csv} (journal ${csv}.journal)`);
      expect(lines).toContainEqual(
        expect.stringMatching(/^bizmsg: waiting for the rate window \(2 requests per window, opens in [12] s\)$/),
      );
      const progress = lines.filter((line) => /^bizmsg: \d{1,2}\/12 rows · /.test(line));
      expect(progress.length).toBeGreaterThanOrEqual(1);
      expect(progress[0]).toMatch(
        /^bizmsg: \d{1,2}\/12 rows · sent \d{1,2} · failed 0 · unknown 0 · skipped 0( · waiting for the rate window \(2 requests per window, opens in [12] s\))?$/,
      );
      expect(sent()).toBe(12);
    },
  );

  it('in a terminal, the bar says it waits for the rate window', { timeout: 90_000 }, async () => {
    const before = sent();
    const result = await bizmsg(slowKey(), emulator.args(csvOf('tty.csv')), {
      tty: true,
      killAfterMs: 80_000,
    });
    expect([result.killed, result.code]).toEqual([false, 0]);
    expect(result.stdout).toMatch(
      /sending \|[=-]+\| [0-7]\/8 rows · sent [0-7] · failed 0 · unknown 0 · skipped 0 · waiting for the rate window \(2 requests per window, opens in [12] s\)/,
    );
    expect(sent() - before).toBe(8);
  });
});

describe('bizmsg bulk progress with plenty of rate budget', () => {
  // The emulator's seeded key allows 1000 requests per window: these jobs are never held back, so
  // nothing may say it waits for the window. The cold client's hold of its other sends until its
  // first answer (at most 2 s, ended in milliseconds) was once told as a 2-second wait for the
  // window, and shown as one from the first answer on.
  const WAITING = 'waiting for the rate window';

  it(
    'without a terminal, says no word of the rate window for a job the window has room for',
    { timeout: 60_000 },
    async () => {
      const csv = csvOf('plenty.csv', 4);
      const result = await bizmsg(emulator.server, emulator.args(csv), { killAfterMs: 50_000 });
      expect([result.killed, result.code]).toEqual([false, 0]);
      expect(result.stdout).toContain('  total    4\n  sent     4\n');
      expect(result.stderr).not.toContain(WAITING);
    },
  );

  it(
    'in a terminal, the bar says no word of the rate window for a job the window has room for',
    { timeout: 60_000 },
    async () => {
      const result = await bizmsg(emulator.server, emulator.args(csvOf('plenty-tty.csv', 60)), {
        tty: true,
        killAfterMs: 50_000,
      });
      expect([result.killed, result.code]).toEqual([false, 0]);
      expect(result.stdout).toMatch(/sending \|=+\| 60\/60 rows · sent 60 · failed 0/);
      expect(result.stdout).not.toContain(WAITING);
    },
  );
});
