import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeBinary } from '../helpers/node-binary.js';

/**
 * Which build of bizmsg/webhooks each runtime and bundler gets from the export conditions, tried
 * with the real runtimes on the built package from a project that depends on it.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'bizmsg-conditions-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(root, join(project, 'node_modules', 'bizmsg'), 'dir');
  writeFileSync(join(project, 'package.json'), '{ "name": "consumer", "private": true, "type": "module" }\n');
  for (const file of ['runtime-probe.mjs', 'runtime-probe.cjs'])
    copyFileSync(join(fixtures, file), join(project, file));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

async function probe(command: string, args: string[]): Promise<unknown> {
  const env = { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' };
  const { stdout } = await run(command, args, { cwd: project, timeout: 60_000, env });
  return JSON.parse(stdout);
}

const NODE_BUILD = {
  verify: true,
  parse: 'message.read',
  sign: true,
  verifyAsync: true,
  parseAsync: 'message.read',
  mock: { attempts: [200], verified: true },
};
const NODE_BUILD_CJS = { verify: true, parse: 'message.read', sign: true };

describe('runtimes with node:crypto get the node build: the synchronous functions work, and the mock signs', () => {
  it.each([
    ['this Node', () => Promise.resolve(process.execPath)],
    // The lowest version engines allows, without process.getBuiltinModule (20.16).
    ['Node 20.0.0', () => nodeBinary('20.0.0')],
  ])(
    '%s, from ESM and CommonJS',
    async (_, binary) => {
      const node = await binary();
      expect(await probe(node, ['runtime-probe.mjs'])).toEqual(NODE_BUILD);
      expect(await probe(node, ['runtime-probe.cjs'])).toEqual(NODE_BUILD_CJS);
    },
    120_000,
  );

  it('Bun (conditions bun, node, import), from ESM and CommonJS', async () => {
    const bun = join(root, 'node_modules/.bin/bun');
    expect(await probe(bun, ['runtime-probe.mjs'])).toEqual(NODE_BUILD);
    expect(await probe(bun, ['runtime-probe.cjs'])).toEqual(NODE_BUILD_CJS);
  }, 60_000);

  it('Deno (conditions deno, node, import)', async () => {
    const deno = join(root, 'node_modules/.bin/deno');
    expect(await probe(deno, ['run', '--allow-read', '--allow-env', '--allow-net', 'runtime-probe.mjs'])).toEqual(
      NODE_BUILD,
    );
  }, 60_000);
});

/** The file of bizmsg/webhooks that esbuild picks under these conditions, and whether the bundle imports node:crypto. */
async function bundled(platform: 'browser' | 'node' | 'neutral', conditions: string[] | undefined) {
  const result = await build({
    stdin: { contents: "export * from 'bizmsg/webhooks';", resolveDir: project },
    bundle: true,
    platform,
    format: 'esm',
    ...(conditions === undefined ? {} : { conditions }),
    external: ['node:*'],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const entry = Object.keys(result.metafile.inputs).find((input) => input.includes('dist/webhooks/'));
  return {
    entry: entry?.replace(/^.*dist\//, 'dist/'),
    importsNodeCrypto: result.outputFiles[0]!.text.includes('from "node:crypto"'),
  };
}

describe('bundlers', () => {
  it.each([
    ['Cloudflare Workers (wrangler)', 'browser', ['workerd', 'worker', 'browser']],
    ['a Web Worker', 'browser', ['worker']],
    ['a browser', 'browser', undefined],
    ['no condition at all (default)', 'neutral', []],
  ] as const)('%s get the Web build, which imports no Node built-in', async (_, platform, conditions) => {
    expect(await bundled(platform, conditions as string[] | undefined)).toEqual({
      entry: 'dist/webhooks/web.js',
      importsNodeCrypto: false,
    });
  });

  it('a bundle for Node gets the node build', async () => {
    expect(await bundled('node', undefined)).toEqual({ entry: 'dist/webhooks/index.js', importsNodeCrypto: true });
  });
});
