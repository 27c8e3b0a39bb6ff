// The packed package installed in a fresh project outside the repository, as users get it: what
// figures 1, 2, 3 and 9 measure (tsconfig paths and the sources stay out of it).
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { packed } from '../scripts/package-once.js';
import { createPackedProject } from '../test/helpers/packed-project.js';

/** Peers the figures compare with, and the optional peers the entries load. */
const LINKS = ['ky', 'openai', 'stripe', 'p-throttle', 'msw'];

let project: Promise<string> | undefined;

/**
 * The project, made once per run and removed at exit, with `probes` (files of bench/probes/) copied
 * to its root so that they resolve `bizmsg` and the peers from its node_modules.
 */
export function packedProject(): Promise<string> {
  project ??= createPackedProject(packed(), 'bizmsg-bench-', LINKS, {}).then((dir) => {
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  });
  return project;
}

/** Copies a probe of bench/probes/ into the project and returns its path there. */
export async function probe(name: string): Promise<string> {
  const dir = await packedProject();
  const target = join(dir, name);
  copyFileSync(new URL(`probes/${name}`, import.meta.url), target);
  return target;
}
