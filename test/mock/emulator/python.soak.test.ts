import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN } from '../../helpers/mock-process.js';

const script = fileURLToPath(new URL('e2e.py', import.meta.url));
const example = fileURLToPath(new URL('../../../examples/emulator/test_chatbot.py', import.meta.url));

describe('bizmsg-mock from another language', () => {
  it('is driven end to end by a Python 3 script, standard library only', () => {
    const run = spawnSync('python3', [script], {
      encoding: 'utf8',
      timeout: 90_000,
      env: { ...process.env, BIZMSG_MOCK_CMD: JSON.stringify([process.execPath, BIN]) },
    });
    expect(run.error, 'python3 must be on the machine').toBe(undefined);
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(/^python e2e: \d+ checks passed\n$/);
    console.log(run.stdout.trim());
  }, 120_000);

  it("runs the README's Python example: a chatbot service and its unittest suite, each against a real bizmsg-mock", () => {
    const run = spawnSync('python3', ['-m', 'unittest', '-v', example], {
      encoding: 'utf8',
      timeout: 90_000,
      env: { ...process.env, BIZMSG_MOCK: JSON.stringify([process.execPath, BIN]) },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Ran 3 tests in [\d.]+s\n\nOK\n$/);
  }, 120_000);
});
