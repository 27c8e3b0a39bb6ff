import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A Workers or browser project has no @types/node: the packed package's types for
 * bizmsg/webhooks must type-check there, under every resolution a project may use.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
let project: string;

const consumer = `
import { createWebhookHandler, defineWebhookHandlers, parseWebhookAsync, verifyWebhookAsync, type WebhookEvent } from 'bizmsg/webhooks';

const options = defineWebhookHandlers({
  secret: 'whsec',
  on: { 'message.delivered': (event) => console.log(event.data.delivered_at.toUpperCase()) },
});
export default { fetch: createWebhookHandler(options) } satisfies { fetch: (request: Request) => Promise<Response> };

export async function check(request: Request): Promise<WebhookEvent | boolean> {
  const body = await request.text();
  const signature = request.headers.get('x-service-signature');
  return (await verifyWebhookAsync(body, signature, 'whsec')) && parseWebhookAsync(body, signature, ['whsec', 'old']);
}
`;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'bizmsg-web-types-'));
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
  // zod is the package's one dependency that its declarations refer to.
  symlinkSync(join(root, 'node_modules', 'zod'), join(project, 'node_modules', 'zod'), 'dir');
  writeFileSync(join(project, 'package.json'), '{ "name": "worker", "private": true, "type": "module" }\n');
  writeFileSync(join(project, 'worker.ts'), consumer);
}, 60_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the types of bizmsg/webhooks without @types/node ("types": [], lib DOM)', () => {
  it.each([
    ['bundler', { module: 'ESNext', moduleResolution: 'bundler' }],
    [
      'bundler, Workers conditions',
      { module: 'ESNext', moduleResolution: 'bundler', customConditions: ['workerd', 'worker'] },
    ],
    ['nodenext (the node condition)', { module: 'NodeNext', moduleResolution: 'NodeNext' }],
  ])(
    'type-check under %s resolution',
    async (name, resolution) => {
      const tsconfig = {
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          ...resolution,
        },
        files: ['worker.ts'],
      };
      const file = `tsconfig.${name.replace(/\W+/g, '-')}.json`;
      writeFileSync(join(project, file), JSON.stringify(tsconfig));
      const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
      const result = await run(process.execPath, [tsc, '-p', file], { cwd: project }).then(
        () => 'no errors',
        (error: { stdout: string }) => error.stdout,
      );
      expect(result).toBe('no errors');
    },
    60_000,
  );
});
