import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('what a release publishes', () => {
  it('packs the build, the OpenAPI documents, the README, the LICENSE and the CHANGELOG, and nothing else', () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }),
    );
    const files: string[] = packed.files.map((file: { path: string }) => file.path);
    expect(files.filter((path) => !path.startsWith('dist/')).sort()).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
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
