import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import semver from 'semver';
import { afterAll, describe, expect, inject, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'bizmsg-release-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The changesets waiting for the next release, as their changelog text. */
function pendingChangesets(): string[] {
  return readdirSync(join(root, '.changeset'))
    .filter((name) => name.endsWith('.md') && name !== 'README.md')
    .map((name) =>
      readFileSync(join(root, '.changeset', name), 'utf8')
        .replace(/^---[\s\S]*?---\s*/, '')
        .trim(),
    );
}

/** The files of the run's tarball (`npm pack --ignore-scripts` of the run's one build), as npm installs them. */
function packedFiles(): string[] {
  const listed = execFileSync('tar', ['tzf', inject('tarball')], { encoding: 'utf8' });
  return listed
    .split('\n')
    .filter((line) => line !== '' && !line.endsWith('/'))
    .map((line) => line.replace(/^package\//, ''));
}

/** Every file package.json points at: entries, their types, the bins. */
function pointedAt(pkg: Record<string, unknown>): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.startsWith('./')) found.add(value.slice(2));
    } else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk([pkg.exports, pkg.bin, pkg.typesVersions]);
  for (const field of ['main', 'module', 'types'] as const) walk(`./${String(pkg[field]).replace(/^\.\//, '')}`);
  return [...found].sort();
}

/** The users' guides the package ships; architecture.md, decisions.md and contributing.md are for contributors. */
const GUIDES = [
  'clients',
  'emulator',
  'exports',
  'mock',
  'openapi',
  'performance',
  'runtimes',
  'scale-out',
  'webhook-events',
  'webhooks',
];
describe('what a release publishes', () => {
  it('packs every file package.json points at, and builds before packing a fresh clone, which has no dist/', () => {
    const files = packedFiles();
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pointedAt(pkg).filter((path) => !files.includes(path))).toEqual([]);
    expect(files.filter((path) => path.startsWith('dist/dashboard/')).length).toBeGreaterThan(1);
    // `npm pack` and `npm publish` run prepack: the build, from the sources a clone holds (dist/ is not committed).
    expect(pkg.scripts.prepack).toBe('npm run build');
    expect(execFileSync('git', ['check-ignore', 'dist/index.js'], { cwd: root, encoding: 'utf8' }).trim()).toBe(
      'dist/index.js',
    );
  });

  it("names where the project lives, so that the registry's page links back to it", () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.repository).toEqual({ type: 'git', url: 'git+https://github.com/bizmsg/bizmsg.git' });
    expect(pkg.homepage).toBe('https://github.com/bizmsg/bizmsg#readme');
    expect(pkg.bugs).toEqual({ url: 'https://github.com/bizmsg/bizmsg/issues' });
  });

  it('installs on Node 20 without an engine warning: every locked package accepts the Node the project supports', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
    const refusing = Object.entries(lock.packages as Record<string, { engines?: { node?: string } }>)
      .filter(([, entry]) => typeof entry.engines?.node === 'string')
      .filter(([, entry]) => !semver.satisfies('20.20.2', entry.engines!.node!, { includePrerelease: true }))
      .map(([path, entry]) => `${path}: node ${entry.engines!.node}`);
    expect(refusing).toEqual([]);
  });

  it("packs the build, the OpenAPI documents, the README, the users' guides, the LICENSE and the CHANGELOG, and nothing else", () => {
    const files = packedFiles();
    expect(files.filter((path) => !path.startsWith('dist/')).sort()).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      ...GUIDES.map((guide) => `docs/${guide}.md`),
      'openapi/control.json',
      'openapi/v1.json',
      'openapi/v2.json',
      'package.json',
    ]);
    expect(files).toContain('dist/index.js');
  });

  it('states the MIT licence that package.json names', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(
      /^MIT License\n\nCopyright \(c\) \d{4} bizmsg contributors\n/,
    );
  });

  it('`changeset version` turns every pending changeset into a CHANGELOG.md entry', () => {
    // A copy, so that the real changesets stay pending until the release step.
    for (const name of ['package.json', 'CHANGELOG.md', '.changeset'])
      cpSync(join(root, name), join(scratch, name), { recursive: true });
    writeFileSync(join(scratch, '.gitignore'), '');
    execFileSync('git', ['init', '-q'], { cwd: scratch });
    execFileSync(join(root, 'node_modules/.bin/changeset'), ['version'], { cwd: scratch, encoding: 'utf8' });
    const changelog = readFileSync(join(scratch, 'CHANGELOG.md'), 'utf8');
    const version = JSON.parse(readFileSync(join(scratch, 'package.json'), 'utf8')).version;
    expect(changelog.startsWith(`# bizmsg\n\n## ${version}\n`)).toBe(true);
    const pending = pendingChangesets();
    expect(pending.length).toBeGreaterThan(0);
    for (const entry of pending) expect(changelog).toContain(entry.split('\n')[0]);
  });
});
