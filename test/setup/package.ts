// Global setup of the `package` and `browser` projects: the build, and for `package` the tarball
// and the runtime matrix's consumer project, each made once per run (scripts/package-once.mjs
// reuses a build and a tarball that are up to date, so a CI run that built and packed first makes
// neither again).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { built, packed } from '../../scripts/package-once.js';
import { npmInstall } from '../helpers/packed-project.js';

const root = new URL('../..', import.meta.url).pathname;

declare module 'vitest' {
  export interface ProvidedContext {
    /** The tarball of the built package (`npm pack --ignore-scripts`). */
    tarball: string;
    /** A project that has the tarball installed as a user's `npm install bizmsg` would (test/runtimes). */
    consumer: string;
  }
}

export default function setup(project: TestProject): (() => void) | undefined {
  if (project.name !== 'package') {
    built();
    return undefined;
  }
  const tarball = packed();
  project.provide('tarball', tarball);
  // The runtimes of the matrix (Node 20.0/22/24, workerd, playwright-core, TypeScript 5.5), once per lockfile.
  execFileSync('bash', [join(root, 'scripts/setup-runtimes.sh')], { stdio: ['ignore', 'inherit', 'inherit'] });
  const scratch = mkdtempSync(join(tmpdir(), 'bizmsg-matrix-'));
  project.provide('consumer', installConsumer(scratch, tarball));
  return () => rmSync(scratch, { recursive: true, force: true });
}

/** test/runtimes/consumer with the tarball installed from its file, as a user installs it from the registry. */
function installConsumer(scratch: string, tarball: string): string {
  const consumer = join(scratch, 'consumer');
  cpSync(join(root, 'test/runtimes/consumer'), consumer, { recursive: true });
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({
      name: 'bizmsg-consumer',
      private: true,
      dependencies: { bizmsg: `file:${tarball}`, msw: '^2.11.0' },
      devDependencies: { '@types/node': '^20.19.0' },
    }),
  );
  npmInstall(consumer);
  return consumer;
}
