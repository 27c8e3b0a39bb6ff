import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { PROJECTS, type Project } from './test/setup/projects.js';

// Five projects (docs/contributing.md has the table; test/setup/projects.ts the rule that a file's
// name says its project). They run one after the other (sequence.groupOrder), each with the
// workers its tests need: unit tests use the CPU, integration tests mostly wait on sockets,
// package and soak tests run processes.

const source = (path: string) => new URL(`./src/${path}`, import.meta.url).pathname;

/** The files of project `name` (not `unit`), anywhere tests live. */
const filesOf = (name: Project) => [`test/**/*.${name}.test.ts`, `examples/**/*.${name}.test.ts`];

/** Every project's setup: fast-check's seed. */
const SETUP = ['test/setup/fast-check.ts'];

function project(name: Project, test: NonNullable<TestProjectInlineConfiguration['test']>) {
  const groupOrder = PROJECTS.indexOf(name);
  return { extends: true, test: { name, sequence: { groupOrder }, ...test } } satisfies TestProjectInlineConfiguration;
}

export default defineConfig({
  // As tsconfig's paths: examples import 'bizmsg' as users do, and run against the sources.
  resolve: {
    alias: [
      { find: /^bizmsg$/, replacement: source('index.ts') },
      { find: /^bizmsg\/webhooks$/, replacement: source('webhooks/index.ts') },
      { find: /^bizmsg\/mock$/, replacement: source('mock/index.ts') },
      { find: /^bizmsg\/bulk$/, replacement: source('bulk/index.ts') },
    ],
  },
  test: {
    restoreMocks: true,
    projects: [
      project('unit', {
        // In process only: test/setup/in-process.ts fails a test that listens, connects, or
        // starts a process, and test/house/projects.test.ts one that reads dist/.
        include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
        exclude: [...configDefaults.exclude, ...PROJECTS.filter((name) => name !== 'unit').flatMap(filesOf)],
        setupFiles: [...SETUP, 'test/setup/in-process.ts'],
        pool: 'threads',
        maxWorkers: 2,
        testTimeout: 20_000,
        // The one full type check of a run: vitest runs `tsc --noEmit` over tsconfig.json (src,
        // tests, examples, bench, scripts) and fails on any error, in a type test or elsewhere.
        // test/types/strict/ holds type tests of a user's strict project on the built package: the
        // package project compiles them (test/types/strict-recipes.package.test.ts).
        typecheck: {
          enabled: true,
          include: ['test/**/*.test-d.ts'],
          exclude: [...configDefaults.typecheck.exclude, 'test/types/strict/**'],
          tsconfig: './tsconfig.json',
        },
      }),
      project('integration', {
        // Sockets on loopback and Redis: the tests wait far more than they compute.
        include: filesOf('integration'),
        setupFiles: SETUP,
        pool: 'forks',
        maxWorkers: 4,
        testTimeout: 30_000,
      }),
      project('package', {
        // The built and packed package (the build is also what browser and soak tests run), made once per change by scripts/package-once.ts.
        include: filesOf('package'),
        setupFiles: SETUP,
        globalSetup: ['test/setup/package.ts'],
        pool: 'forks',
        maxWorkers: 3,
        testTimeout: 120_000,
        hookTimeout: 120_000,
      }),
      project('browser', {
        include: filesOf('browser'),
        setupFiles: SETUP,
        globalSetup: ['test/setup/package.ts'],
        pool: 'forks',
        maxWorkers: 1,
        testTimeout: 60_000,
        hookTimeout: 60_000,
      }),
      project('soak', {
        // Memory, crashes, chaos, many processes, other languages, long fuzz runs.
        include: filesOf('soak'),
        setupFiles: SETUP,
        globalSetup: ['test/setup/package.ts'],
        pool: 'forks',
        maxWorkers: 2,
        testTimeout: 120_000,
        hookTimeout: 60_000,
      }),
    ],
  },
});
