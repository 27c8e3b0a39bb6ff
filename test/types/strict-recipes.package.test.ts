import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { npmInstall } from '../helpers/packed-project.js';

// The README's recipes and what users pass (test/types/strict/*.test-d.ts), compiled as a user's strict
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
  npmInstall(project);
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
  // A user's module of one-line wrappers, compiled with declarations as a library of theirs would be.
  mkdirSync(join(project, 'wrappers'));
  writeFileSync(join(project, 'wrappers', 'wrappers.ts'), WRAPPERS);
  // A spread error's declaration names every property of the error: none may be an unexported symbol (TS4023).
  writeFileSync(
    join(project, 'wrappers', 'errors.ts'),
    "import type { ApiError } from 'bizmsg';\nexport const forLog = (error: ApiError) => ({ ...error, loggedAt: Date.now() });\n",
  );
  writeFileSync(
    join(project, 'tsconfig.wrappers.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: ['node'],
        strict: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: false,
        declaration: true,
        emitDeclarationOnly: true,
        outDir: 'wrappers-out',
      },
      files: ['wrappers/wrappers.ts', 'wrappers/errors.ts'],
    }),
  );
}, 300_000);

const WRAPPERS = `import { Variant2Client } from 'bizmsg';
const client = new Variant2Client({ apiKey: 'k' });
export const getContact = (id: string) => client.contacts.get(id);
export const sendHello = (to: string) => client.messages.sendText({ messaging_account_id: 1, to, body: 'Hi' });
export const contacts = () => client.contacts.list();
`;

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

/** Every declaration file of the installed package, by its path below the package. */
function declarations(): Array<[file: string, text: string]> {
  const root = join(project, 'node_modules', 'bizmsg');
  return readdirSync(join(root, 'dist'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.d\.c?ts$/.test(file))
    .map((file) => [relative(root, join(root, 'dist', file)), readFileSync(join(root, 'dist', file), 'utf8')]);
}

describe('the declarations a user reads', () => {
  it('import no zod or ky, and name none of the request plumbing or an @internal member', () => {
    const found = declarations().flatMap(([file, text]) =>
      [
        /from 'zod[/']/,
        /import 'zod[/']/,
        /from 'ky'/,
        /@internal/,
        /\b(CallSpec|HttpClient|Protocol|ServiceResponse|PageFetcher|PageData|ResultChannel|RunWork)\b/,
        /\bZodMini\w*/,
      ].flatMap((pattern) => (pattern.test(text) ? [`${file}: ${pattern.source}`] : [])),
    );
    expect(found).toEqual([]);
    expect(declarations().length).toBeGreaterThan(10);
  });

  it("give a wrapper's declaration the names Contact and Message, one line a wrapper", async () => {
    expect(await tsc('tsconfig.wrappers.json')).toBe('');
    const emitted = readFileSync(join(project, 'wrappers-out', 'wrappers.d.ts'), 'utf8')
      .trim()
      .split('\n');
    expect(emitted).toEqual([
      'export declare const getContact: (id: string) => import("bizmsg").ApiPromise<import("bizmsg").Contact>;',
      'export declare const sendHello: (to: string) => import("bizmsg").ApiPromise<import("bizmsg").Message>;',
      'export declare const contacts: () => import("bizmsg").PagePromise<import("bizmsg").Contact>;',
    ]);
  });
});
