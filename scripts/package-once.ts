// The build and the packed tarball, made once per change and reused by everything that needs them:
// publint and attw, the `package` and `browser` test projects, the runtime matrix and the bench.
// A build is reused while the files it is made from are unchanged (their SHA-256, kept beside it),
// the tarball while the build and the files it ships are; so one CI run builds once and packs once.
//
//   tsx scripts/package-once.ts          builds and packs what is out of date, prints the tarball's path
//   import { built, packed } from './package-once.js'
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** What `npm run build` reads: the sources, the build's configuration and scripts, the dependencies. */
const BUILD_INPUTS = [
  'src',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsup.config.ts',
  'scripts/optional-peer-types.mjs',
  'scripts/type-only-exports.mjs',
  'scripts/openapi.mjs',
  'scripts/dashboard.mjs',
];

/** Where the build records the hash of its inputs (dist/ is emptied by each build). */
const BUILD_STAMP = join(root, 'dist', '.inputs');

/** The one tarball, git-ignored, with the hash of what it holds beside it. */
export const TARBALL = join(root, '.pack', 'bizmsg.tgz');
const PACK_STAMP = `${TARBALL}.inputs`;

/** Every file under `paths` (relative to the root), sorted, skipping what is missing. */
function filesOf(paths: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (path: string) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) walk(join(path, name));
    else files.push(path);
  };
  for (const path of paths) walk(join(root, path));
  return files;
}

/** SHA-256 over the names and bytes of `files`, and of `extra`. */
function hashOf(files: readonly string[], extra = ''): string {
  const hash = createHash('sha256').update(extra);
  for (const file of files) hash.update(`\0${relative(root, file)}\0`).update(readFileSync(file));
  return hash.digest('hex');
}

const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);

function run(command: string, args: string[]): void {
  execFileSync(command, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000 });
}

/** Builds unless dist/ was built from the sources as they are now. Returns the inputs' hash. */
export function built(): string {
  const inputs = hashOf(filesOf(BUILD_INPUTS));
  if (read(BUILD_STAMP) === inputs) return inputs;
  console.error('package-once: building (npm run build): the sources changed since the last build');
  run('npm', ['run', 'build', '--silent']);
  writeFileSync(BUILD_STAMP, inputs);
  return inputs;
}

/** The files `npm pack` ships besides dist/ (package.json "files"; LICENSE and package.json always). */
function shippedBesidesDist(): string[] {
  const { files } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
  return [...files.filter((path) => path !== 'dist'), 'LICENSE'];
}

/**
 * Packs (`npm pack --ignore-scripts`: the build above is the one build) unless the tarball holds
 * this build and these files already. Returns the tarball's path.
 */
export function packed(): string {
  const inputs = hashOf(filesOf(shippedBesidesDist()), built());
  if (read(PACK_STAMP) === inputs && existsSync(TARBALL)) return TARBALL;
  const dir = join(root, '.pack');
  const scratch = join(dir, `pack-${process.pid}`);
  mkdirSync(scratch, { recursive: true });
  try {
    run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', scratch]);
    const [name] = readdirSync(scratch).filter((file) => file.endsWith('.tgz'));
    if (name === undefined) throw new Error(`npm pack wrote no tarball into ${scratch}`);
    renameSync(join(scratch, name), TARBALL);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  writeFileSync(PACK_STAMP, inputs);
  return TARBALL;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(packed());
