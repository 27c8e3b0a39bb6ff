import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Browser and Workers test suites have no @types/node: the packed package's types for the Web
 * builds of bizmsg/mock must type-check there.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
let project: string;

const workerSuite = `
import { MockService, MAGIC_NUMBERS, type MockState } from 'bizmsg/mock';

const mock = new MockService({ variant: 2 });
export const fetchStub = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => mock.handle(new Request(input, init));
export const contacts: MockState['contacts'] = mock.store.contacts;
export const phone: string = MAGIC_NUMBERS.fails;
`;
const browserSuite = `
import { createMockWorker, type MockState } from 'bizmsg/mock';

const mock = createMockWorker({ variant: 2 });
await mock.start({ quiet: true, serviceWorker: { url: '/mockServiceWorker.js' } });
mock.inject({ route: 'POST /messages/send', status: 502, times: 1 });
await mock.clock.advance(1000);
export const contacts: MockState['contacts'] = mock.store.contacts;
export const key: string = mock.apiKey;
mock.stop();
`;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'bizmsg-mock-web-types-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', project], { cwd: root });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  mkdirSync(join(project, 'node_modules', 'bizmsg'), { recursive: true });
  await run('tar', [
    'xzf',
    join(project, filename),
    '--strip-components=1',
    '-C',
    join(project, 'node_modules', 'bizmsg'),
  ]);
  // zod is the dependency the declarations refer to; msw the peer dependency of the browser build.
  for (const name of ['zod', 'msw'])
    symlinkSync(join(root, 'node_modules', name), join(project, 'node_modules', name), 'dir');
  writeFileSync(join(project, 'package.json'), '{ "name": "suite", "private": true, "type": "module" }\n');
  writeFileSync(join(project, 'worker.ts'), workerSuite);
  writeFileSync(join(project, 'browser.ts'), browserSuite);
}, 60_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the types of the Web builds of bizmsg/mock without @types/node ("types": [], lib DOM)', () => {
  it.each([
    [
      'a browser suite, bundler resolution with the browser condition',
      'browser.ts',
      { moduleResolution: 'bundler', customConditions: ['browser'] },
    ],
    [
      'a Workers suite, bundler resolution with the Workers conditions',
      'worker.ts',
      { moduleResolution: 'bundler', customConditions: ['workerd', 'worker'] },
    ],
  ])(
    'type-check %s',
    async (name, file, resolution) => {
      const tsconfig = {
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          ...resolution,
        },
        files: [file],
      };
      const config = `tsconfig.${name.replace(/\W+/g, '-')}.json`;
      writeFileSync(join(project, config), JSON.stringify(tsconfig));
      const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
      const result = await run(process.execPath, [tsc, '-p', config], { cwd: project }).then(
        () => 'no errors',
        (error: { stdout: string }) => error.stdout,
      );
      expect(result).toBe('no errors');
    },
    60_000,
  );
});
