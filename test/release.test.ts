import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import semver from 'semver';
import { afterAll, describe, expect, it } from 'vitest';

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

/** The files `npm pack` puts in the package made in `cwd`, after its own scripts (`prepack`) unless told not to run them. */
function packedFiles(cwd: string, ...flags: string[]): string[] {
  const printed = execFileSync('npm', ['pack', '--dry-run', '--json', ...flags], { cwd, encoding: 'utf8' });
  // The scripts print their own lines first; npm's JSON report is what comes last.
  const [packed] = JSON.parse(printed.slice(printed.lastIndexOf('[\n  {')));
  return packed.files.map((file: { path: string }) => file.path);
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
  it('packs a build made by `npm pack` itself in a fresh clone (prepack), with every file package.json points at', () => {
    const clone = join(scratch, 'clone');
    execFileSync('git', ['clone', '--quiet', root, clone]);
    symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
    const files = packedFiles(clone);
    const pkg = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8'));
    expect(pointedAt(pkg).filter((path) => !files.includes(path))).toEqual([]);
    expect(files.filter((path) => path.startsWith('dist/dashboard/')).length).toBeGreaterThan(1);
  }, 180_000);

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
    const files = packedFiles(root, '--ignore-scripts');
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
