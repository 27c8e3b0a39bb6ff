import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Deno cannot unref a BroadcastChannel, and msw's main entry opens one when it loads: a script
 * that imported bizmsg/mock never ended. Runs the built package (`npm test` builds first).
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
// Generous for a loaded 2-core machine; a script that does not end by itself is killed at it.
const EXIT_WITHIN_MS = 20_000;

function runUnderDeno(mode: string): Promise<{ stdout: string; killed: boolean; code: number | null }> {
  const deno = `${root}node_modules/.bin/deno`;
  const env = { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' };
  return new Promise((resolve) => {
    execFile(
      deno,
      ['run', '--allow-read', '--allow-env', '--allow-net', 'test/mock/fixtures/deno-exit.mjs', mode],
      { cwd: root, env, timeout: EXIT_WITHIN_MS },
      (error, stdout) => {
        resolve({ stdout, killed: error?.killed ?? false, code: error === null ? 0 : (error.code as number | null) });
      },
    );
  });
}

describe('a Deno script using bizmsg/mock', () => {
  it('ends by itself once it has imported the mock', async () => {
    expect(await runUnderDeno('import')).toEqual({ stdout: '{"imported":"function"}\n', killed: false, code: 0 });
  }, 30_000);

  it('ends by itself with a mock still listening and its virtual clock holding tasks', async () => {
    expect(await runUnderDeno('serve')).toEqual({
      stdout: '{"imported":"function","sent":"msg_1"}\n',
      killed: false,
      code: 0,
    });
  }, 30_000);
});
