import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A temporary ESM project with the packed package (`tarball`: the `package` project's
 * `inject('tarball')`, or `packed()` of scripts/package-once.ts) unpacked into its node_modules
 * as npm installs it, `links` from this repository's node_modules beside it, and `files` written
 * at its root.
 */
export async function createPackedProject(
  tarball: string,
  prefix: string,
  links: readonly string[],
  files: Record<string, string>,
): Promise<string> {
  const project = mkdtempSync(join(tmpdir(), prefix));
  const installed = join(project, 'node_modules', 'bizmsg');
  mkdirSync(installed, { recursive: true });
  await run('tar', ['xzf', tarball, '--strip-components=1', '-C', installed]);
  for (const name of links) symlinkSync(join(root, 'node_modules', name), join(project, 'node_modules', name), 'dir');
  writeFileSync(join(project, 'package.json'), '{ "name": "consumer", "private": true, "type": "module" }\n');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text);
  return project;
}

/**
 * Type-checks `file` of `project` under strict, with lib DOM and no @types/node, as a Workers or
 * browser project does; `name` names the tsconfig written for it. 'no errors', or what tsc printed.
 */
export async function typeCheckWithoutNode(
  project: string,
  name: string,
  file: string,
  compilerOptions: Record<string, unknown>,
): Promise<string> {
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      lib: ['ES2022', 'DOM'],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      ...compilerOptions,
    },
    files: [file],
  };
  const config = `tsconfig.${name.replace(/\W+/g, '-')}.json`;
  writeFileSync(join(project, config), JSON.stringify(tsconfig));
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  return run(process.execPath, [tsc, '-p', config], { cwd: project }).then(
    () => 'no errors',
    (error: { stdout: string }) => error.stdout,
  );
}

/**
 * Installs the dependencies `project`'s package.json lists, as a user's `npm install` does (from
 * the npm cache when it can, no scripts, no lock file), within 5 minutes; npm's errors go to stderr.
 */
export function npmInstall(project: string): void {
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
}
