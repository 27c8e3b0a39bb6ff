import { createServer } from 'node:http';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectOf } from '../setup/projects.js';

// Each test file in its project (docs/contributing.md). A unit test runs in process: it neither
// listens, connects nor starts a process (test/setup/in-process.ts fails it where it does), nor
// reads the build in dist/, which only the `package` and `browser` projects make sure is there and
// up to date (checked here, on the text of the file and of what it imports from the repository).

const root = fileURLToPath(new URL('../..', import.meta.url));

function testFilesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(join(root, path)).isDirectory()) return testFilesUnder(path);
    return /\.test(-d)?\.ts$/.test(name) ? [path] : [];
  });
}

const files = [...testFilesUnder('test'), ...testFilesUnder('examples')].sort();

/**
 * The test code `file` imports, and what that imports in turn (relative imports under test/ and
 * examples/; src/ may name dist/, as the mock does where it serves the dashboard's build).
 */
function importClosure(file: string): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path) || !/^(test|examples)\//.test(path)) return;
    seen.add(path);
    const text = readFileSync(join(root, path), 'utf8');
    for (const match of text.matchAll(
      /(?:import|export)\s*(?:type\s+)?(?:[^'"]*?\sfrom\s*)?\(?\s*['"](\.[^'"]+)['"]/g,
    )) {
      const target = normalize(join(dirname(path), match[1]!));
      for (const candidate of [target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx'), target]) {
        try {
          if (statSync(join(root, candidate)).isFile()) {
            visit(candidate);
            break;
          }
        } catch {
          // not this one
        }
      }
    }
  };
  visit(file);
  return [...seen];
}

/** A path into the build: `../dist/...`, `'dist/...'`, `join(root, 'dist', ...)`; not a package's own `ajv/dist/...`. */
const READS_DIST = /(?:\.\.?\/)+dist\b|['"`]dist['"`/]/;

describe('the test projects', () => {
  it('know every test file: a name says its project, and no other word stands where a project would', () => {
    const unknown = files.flatMap((file) => {
      const project = projectOf(file);
      return typeof project === 'string' ? [] : [`${file} ("${project.unknown}" is not a project)`];
    });
    expect(unknown).toEqual([]);
    expect(files.length).toBeGreaterThan(100);
  });

  it('keep the unit tests off dist/, in the file and in what it imports', () => {
    // This file names dist/ in the examples below, and reads nothing.
    const self = 'test/house/projects.test.ts';
    const readers = files
      .filter((file) => projectOf(file) === 'unit' && file !== self)
      .flatMap((file) =>
        importClosure(file)
          .filter((path) => READS_DIST.test(readFileSync(join(root, path), 'utf8')))
          .map((path) => (path === file ? file : `${file} (through ${path})`)),
      );
    expect(readers).toEqual([]);
  });

  it('finds a read of dist/ however it is written, and not a package path', () => {
    const written = [
      "new URL('../../dist/mock/cli.js', import.meta.url)",
      "file: 'dist/mock/browser.js'",
      "join(root, 'dist', 'dashboard')",
      'import("./dist/index.js")',
    ];
    expect(written.filter((text) => READS_DIST.test(text))).toEqual(written);
    expect(READS_DIST.test("import { Ajv2020 } from 'ajv/dist/2020.js';")).toBe(false);
  });
});

describe('the in-process guard of the unit project', () => {
  const guard = (globalThis as Record<symbol, { taken: string[] } | undefined>)[Symbol.for('bizmsg.test.in-process')];

  /** What the guard recorded for `attempt`, taken off its record so that this test does not fail on it. */
  function refusal(attempt: () => unknown): { thrown: string; recorded: string[] } {
    let thrown = '';
    try {
      attempt();
    } catch (error) {
      thrown = (error as Error).message;
    }
    return { thrown, recorded: guard!.taken.splice(0) };
  }

  it('refuses a listening socket, a connection and a process, and fails the test even when it caught the error', () => {
    expect(guard).toBeDefined();
    for (const [attempt, what] of [
      [() => createServer().listen(0), 'listened on a socket'],
      [() => connect(9, '127.0.0.1'), 'opened a connection'],
      [() => execFileSync('true'), 'started a process (execFileSync true)'],
    ] as const) {
      const { thrown, recorded } = refusal(attempt);
      expect(thrown).toContain(`A unit test ${what}`);
      expect(thrown).toContain('in "the in-process guard of the unit project > refuses');
      expect(recorded).toEqual([thrown]);
    }
  });
});
