import { execFile } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { consumer, matrixBinary } from './helpers.js';

// The oldest TypeScript the README claims (zod 4's own floor) and the one the project builds with.
const COMPILERS: Array<[version: string, tsc: string]> = [
  ['5.5.4', matrixBinary('typescript-5.5/bin/tsc')],
  ['5.9', new URL('../../node_modules/typescript/bin/tsc', import.meta.url).pathname],
];

// Every moduleResolution the README claims; under node16/nodenext, types.ts is a CommonJS file
// (the consumer has no "type": "module") and types.mts an ES module, so both conditions are read.
const MODES: Array<[name: string, compilerOptions: Record<string, string>, files: string[]]> = [
  ['node10', { module: 'commonjs', moduleResolution: 'node10' }, ['types.ts']],
  ['node16', { module: 'node16', moduleResolution: 'node16' }, ['types.ts', 'types.mts']],
  ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }, ['types.ts', 'types.mts']],
  ['bundler', { module: 'esnext', moduleResolution: 'bundler' }, ['types.ts']],
];

beforeAll(() => {
  copyFileSync(join(consumer, 'types.ts'), join(consumer, 'types.mts'));
  for (const [name, compilerOptions, files] of MODES) {
    const tsconfig = {
      compilerOptions: {
        ...compilerOptions,
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: ['node'],
        strict: true,
        noEmit: true,
        esModuleInterop: true,
        skipLibCheck: true,
      },
      files,
    };
    writeFileSync(join(consumer, `tsconfig.${name}.json`), JSON.stringify(tsconfig));
  }
});

function tsc(compiler: string, project: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [compiler, '-p', project, '--pretty', 'false'],
      { cwd: consumer, timeout: 90_000 },
      (_, stdout, stderr) => resolve(`${stdout}${stderr}`.trim()),
    );
  });
}

describe.each(COMPILERS)('the packed declarations under TypeScript %s', (_, compiler) => {
  it.each(MODES)('compile a strict consumer with moduleResolution %s', async (name) => {
    expect(await tsc(compiler, `tsconfig.${name}.json`)).toBe('');
  });
});
