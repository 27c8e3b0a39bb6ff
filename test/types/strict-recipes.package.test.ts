import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// The README's recipes and what users pass (test/types/strict/*.ts), compiled as a user's strict
// project compiles them against the packed package (issue 42): strict, noUncheckedIndexedAccess,
// exactOptionalPropertyTypes, and skipLibCheck off, so that the package's own declarations are
// checked too, under each moduleResolution a user's project may have.

const STRICT = new URL('./strict/', import.meta.url).pathname;
const TSC = new URL('../../node_modules/typescript/bin/tsc', import.meta.url).pathname;

const MODES: Array<[name: string, compilerOptions: Record<string, string>]> = [
  ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
  // The project is "type": "module": the files are ES modules, read through the import condition.
  ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
  // CommonJS: the require condition's declarations (.d.cts), found by `types` and `typesVersions`.
  ['commonjs', { module: 'commonjs', moduleResolution: 'node10' }],
];

let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'bizmsg-strict-'));
  for (const name of readdirSync(STRICT).filter((file) => file.endsWith('.ts'))) {
    cpSync(join(STRICT, name), join(project, name));
  }
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'bizmsg-strict-consumer',
      private: true,
      type: 'module',
      dependencies: { bizmsg: `file:${inject('tarball')}`, msw: '^2.11.0' },
      devDependencies: { '@types/node': '^20.19.0', '@types/express': '^5.0.6' },
    }),
  );
  execFileSync(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--no-package-lock',
      '--loglevel=error',
    ],
    { cwd: project, stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 },
  );
  for (const [name, compilerOptions] of MODES) {
    const tsconfig = {
      compilerOptions: {
        ...compilerOptions,
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: ['node'],
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: false,
        esModuleInterop: true,
        noEmit: true,
      },
      include: ['*.ts'],
    };
    writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify(tsconfig));
  }
}, 300_000);

afterAll(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
});

/** What tsc printed for `tsconfig`: its errors, one a line; empty when the project compiles. */
function tsc(tsconfig: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [TSC, '-p', tsconfig, '--pretty', 'false'],
      { cwd: project, timeout: 110_000 },
      (_, stdout, stderr) => resolve(`${stdout}${stderr}`.trim()),
    );
  });
}

describe('the README recipes in a strict project, against the packed package', () => {
  it.each(MODES)('compile with moduleResolution %s and skipLibCheck off', async (name) => {
    expect(await tsc(`tsconfig.${name}.json`)).toBe('');
  });
});
