import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { CLI, useBulkEmulator } from './cli-process.js';

// `bizmsg bulk` given a row of 600 MB: refused by its line, before anything is sent, in bounded
// memory (the bin's peak resident set, beside the same command on a one-row CSV).

const emulator = useBulkEmulator({ order_update: { languages: ['en'], body: ['name'] } });
beforeEach(() => emulator.server.mock.reset());

describe('bizmsg bulk and a huge row', () => {
  it(
    'refuses a CSV with a 600 MB field by its line, before sending, without holding the row',
    { timeout: 180_000 },
    async () => {
      const csv = join(emulator.dir, 'huge.csv');
      const out = createWriteStream(csv);
      out.write('phone,name\n+4915112340021,Ada\n+4915112340022,');
      const chunk = Buffer.alloc(1 << 20, 'x');
      for (let i = 0; i < 600; i += 1) if (!out.write(chunk)) await once(out, 'drain');
      out.end('\n+4915112340023,Eve\n');
      await once(out, 'finish');
      const small = emulator.file('small.csv', 'phone,name\n+4915112340024,Ada\n');

      const huge = peakRss(emulator.args(csv, ['--journal', join(emulator.dir, 'huge.journal')]));
      rmSync(csv);
      expect(huge.code).toBe(2);
      expect(huge.stderr).toBe(
        `bizmsg: ${csv}: the row at line 3 is longer than 1 MiB (a phone number and a template's parameters take far less): fix or remove it. Nothing was sent.\n`,
      );
      expect(huge.stdout).toBe('');
      expect(emulator.sends()).toEqual([]);
      // The same command on a one-row CSV: what the bin and tsx take anyway.
      const baseline = peakRss(emulator.args(small, ['--journal', join(emulator.dir, 'small.journal')]));
      expect(baseline.code).toBe(0);
      expect(huge.peakMiB).toBeLessThan(baseline.peakMiB + 64);
    },
  );
});

/** Runs the bin to its end and reads its peak resident memory (getrusage of the children, from Python). */
function peakRss(cliArgs: readonly string[]): { code: number | null; stdout: string; stderr: string; peakMiB: number } {
  const measure =
    'import resource, subprocess, sys\n' +
    'code = subprocess.run(sys.argv[1:]).returncode\n' +
    'print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=open(3, "w"))\n' +
    'sys.exit(code)';
  const result = spawnSync('python3', ['-c', measure, process.execPath, '--import', 'tsx', CLI, ...cliArgs], {
    env: { ...process.env, BIZMSG_API_KEY: emulator.server.apiKey, BIZMSG_BASE_URL: emulator.server.baseUrl },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  const kib = Number((result.output[3] as string).trim());
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, peakMiB: kib / 1024 };
}
