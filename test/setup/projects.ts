// The test projects (docs/contributing.md): one list for vitest.config.ts and the house test that
// keeps each file in its project. A file's name says its project: `name.test.ts` is a unit test,
// `name.<project>.test.ts` belongs to that project.

/** The projects in the order a full run takes them. */
export const PROJECTS = ['unit', 'integration', 'package', 'browser', 'soak'] as const;

/** A test project's name. */
export type Project = (typeof PROJECTS)[number];

/** The project of the test file `path` (a `.test.ts` or `.test-d.ts` file), or why it has none. */
export function projectOf(path: string): Project | { unknown: string } {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name.endsWith('.test-d.ts')) return 'unit';
  const qualifier = /^[^.]+\.([^.]+)\.test\.ts$/.exec(name)?.[1];
  if (qualifier === undefined) return 'unit';
  return PROJECTS.includes(qualifier as Project) && qualifier !== 'unit'
    ? (qualifier as Project)
    : { unknown: qualifier };
}
