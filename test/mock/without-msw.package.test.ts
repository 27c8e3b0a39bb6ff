import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createPackedProject } from '../helpers/packed-project.js';

/**
 * msw is an optional peer: a project that runs bizmsg-mock, or starts it with startMockHttpServer,
 * installs bizmsg alone. The packed package, with its dependencies and without msw, imported from
 * ESM and required from CommonJS.
 */

const run = promisify(execFile);
const MISSING =
  'BizMsgError: createMockServer needs msw, an optional peer dependency of bizmsg: npm install --save-dev msw@^2.11. ' +
  '(startMockHttpServer, connectMock and the bizmsg-mock command work without it.) cause ERR_MODULE_NOT_FOUND';

// The same program in both module systems: the HTTP mock and its control API work, createMockServer says what is missing.
const program = (load: string, code: string) => `
${load}
const server = await startMockHttpServer({ port: 0, variant: 2 });
const answer = await fetch(server.baseUrl + '/account/me', { headers: { authorization: 'Bearer ' + server.apiKey } });
const control = connectMock(server.baseUrl);
await control.receiveMessage({ from: '+4915112345678', body: 'hello' });
const state = await control.state();
const lines = [answer.status, (await control.health()).ok, state.messages.length];
try {
  createMockServer({ variant: 2 });
  lines.push('created');
} catch (error) {
  lines.push(error.name + ': ' + error.message + ' cause ' + (error.cause?.code === '${code}' ? '${code}' : error.cause?.code));
}
await server.close();
console.log(lines.join('\\n'));
`;

let project: string;

beforeAll(async () => {
  project = await createPackedProject(inject('tarball'), 'bizmsg-without-msw-', ['ky', 'zod', 'p-throttle'], {
    'esm.mjs': program(
      "import { connectMock, createMockServer, startMockHttpServer } from 'bizmsg/mock';",
      'ERR_MODULE_NOT_FOUND',
    ),
    'cjs.cjs': `(async () => {${program(
      "const { connectMock, createMockServer, startMockHttpServer } = require('bizmsg/mock');",
      'MODULE_NOT_FOUND',
    )}})();`,
  });
}, 60_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

it.each([
  ['imported from ESM', 'esm.mjs', 'ERR_MODULE_NOT_FOUND'],
  ['required from CommonJS', 'cjs.cjs', 'MODULE_NOT_FOUND'],
])(
  'bizmsg/mock %s without msw: the HTTP mock and its control API work, createMockServer says to install msw',
  async (_, file, code) => {
    const { stdout } = await run(process.execPath, [join(project, file)], { cwd: project });
    expect(stdout.split('\n')).toEqual(['200', 'true', '1', MISSING.replace('ERR_MODULE_NOT_FOUND', code), '']);
  },
);

it('bizmsg-mock starts without msw', async () => {
  const { stdout } = await run(process.execPath, [join(project, 'node_modules/bizmsg/dist/mock/cli.js'), '--help'], {
    cwd: project,
  });
  expect(stdout).toContain('bizmsg-mock');
});
