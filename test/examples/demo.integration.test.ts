import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

it('npm run demo runs the whole flow against the embedded mock and exits 0', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], {
    cwd: new URL('../..', import.meta.url),
    timeout: 60_000,
  });
  expect(stdout).toContain('page 3/3: Edsger Dijkstra');
  expect(stdout).toMatch(/webhook <- message\.delivered/);
  expect(stdout).toContain(
    'InvalidArgumentError: The body of POST /contacts, field `phone`: "12-34" is not a valid phone number: it has 4 digits, not 8 to 15.',
  );
  expect(stdout).toContain(
    'ValidationError: POST /contacts failed with 422 VALIDATION_ERROR: Invalid request parameters: name. (name: must not be empty)',
  );
  expect(stdout).toMatch(/15 sent in \d+\.\d s with 0 rate-limit errors/);
  expect(stdout).toMatch(/Done: \d+ webhook events received and verified/);
}, 60_000);
