import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockHttpServer, type MockHttpServer } from '../src/mock/index.js';

const run = promisify(execFile);
const root = new URL('..', import.meta.url);
let server: MockHttpServer;
beforeAll(async () => {
  server = await startMockHttpServer({ variant: 2 });
});
afterAll(() => server.close());

const runtimes: Array<[string, string[]]> = [
  ['bun', ['node_modules/.bin/bun', 'test/runtimes/smoke.mjs']],
  ['deno', ['node_modules/.bin/deno', 'run', '--allow-net', '--allow-read', '--allow-env', 'test/runtimes/smoke.mjs']],
];

describe.each(runtimes)('the built package on %s', (_, [command, ...args]) => {
  it('calls the service, types errors and verifies webhooks', async () => {
    server.mock.reset();
    const { stdout } = await run(command!, [...args, server.url, server.apiKey], { cwd: root, timeout: 60_000, env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' } });
    expect(JSON.parse(stdout)).toEqual({
      contact: 1,
      listed: 1,
      sent: 'msg_1',
      validation: { name: ['must not be empty'] },
      verify: true,
      verifyAsync: true,
      handler: 200,
    });
  }, 60_000);
});
