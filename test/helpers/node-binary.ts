import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CACHE = fileURLToPath(new URL('../../node_modules/.cache/bizmsg-node/', import.meta.url));

/**
 * The path of a Node binary of exactly `version`, fetched once from the npm registry (the
 * `node-<platform>-<arch>` packages hold the official binaries) into node_modules/.cache.
 * Not a devDependency: those packages install a `node` bin that would shadow the Node that
 * npm scripts run on.
 */
export async function nodeBinary(version: string): Promise<string> {
  const dir = join(CACHE, version);
  const binary = join(dir, 'package', 'bin', 'node');
  if (existsSync(binary)) return binary;
  const staging = `${dir}.${process.pid}`;
  mkdirSync(staging, { recursive: true });
  const { stdout } = await run(
    'npm',
    ['pack', `node-${platform()}-${arch()}@${version}`, '--json', '--pack-destination', staging],
    { cwd: staging },
  );
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  await run('tar', ['xzf', filename, 'package/bin/node'], { cwd: staging });
  renameSync(staging, dir);
  return binary;
}
