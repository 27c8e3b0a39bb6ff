// The Node binaries figures 2, 3 and 9 run on: this one, and Node 22 and 24 where the runtime
// matrix installed them (test/runtimes/node_modules, `npm run test:runtimes`).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Row } from './lib.js';

/** A Node binary and the version it reports. */
export interface NodeBinary {
  readonly path: string;
  readonly version: string;
}

/** The other majors measured beside the one running the bench. */
const OTHERS = ['node-22', 'node-24'];

/** This Node, then the matrix's Node 22 and 24 unless `quick` (CI measures this one only). */
export function nodeBinaries(quick: boolean): { found: NodeBinary[]; missing: string[] } {
  const found: NodeBinary[] = [{ path: process.execPath, version: process.version }];
  const missing: string[] = [];
  if (quick) return { found, missing };
  for (const name of OTHERS) {
    const path = new URL(`../test/runtimes/node_modules/${name}/bin/node`, import.meta.url).pathname;
    if (!existsSync(path)) missing.push(name.replace('node-', 'Node '));
    else found.push({ path, version: execFileSync(path, ['--version'], { encoding: 'utf8' }).trim() });
  }
  return { found, missing };
}

/** The rows that say a figure was not taken on a Node the matrix has not installed. */
export function missingRows(figure: string, missing: readonly string[]): Row[] {
  return missing.map((name) => ({
    figure,
    subject: `${name}: not installed`,
    value: 0,
    unit: '',
    note: 'npm run test:runtimes installs it',
  }));
}
