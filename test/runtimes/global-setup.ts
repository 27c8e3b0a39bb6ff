// Once per matrix run: packs the built package and installs the tarball into a fresh consumer
// project, as a user's `npm install bizmsg` would; every runtime then loads it from there.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

const root = new URL('../..', import.meta.url).pathname;

declare module 'vitest' {
  export interface ProvidedContext {
    /** The consumer project that has the packed bizmsg installed. */
    consumer: string;
  }
}

export default function setup(project: TestProject): () => void {
  const scratch = mkdtempSync(join(tmpdir(), 'bizmsg-matrix-'));
  const consumer = join(scratch, 'consumer');
  const tarball = pack(scratch);
  cpSync(new URL('consumer', import.meta.url), consumer, { recursive: true });
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({
      name: 'bizmsg-consumer',
      private: true,
      dependencies: { bizmsg: `file:${tarball}`, msw: '^2.11.0' },
      devDependencies: { '@types/node': '^20.19.0' },
    }),
  );
  npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'], consumer);
  project.provide('consumer', consumer);
  return () => rmSync(scratch, { recursive: true, force: true });
}

function pack(destination: string): string {
  npm(['pack', '--silent', '--ignore-scripts', '--pack-destination', destination], root);
  const [tarball] = readdirSync(destination).filter((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack wrote no tarball into ${destination}`);
  return join(destination, tarball);
}

function npm(args: string[], cwd: string): void {
  execFileSync('npm', [...args, '--loglevel=error'], { cwd, stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 });
}
