// The names each entry of the built package exports are exactly those docs/exports.md lists, values and types apart.
import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtExports, countTable, documentedExports, ENTRIES, type BuiltExports } from '../scripts/exports.js';

beforeAll(() => {
  if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
    throw new Error('dist/ is missing: run `npm run build` (npm test does it first).');
  }
});

describe('the entries of the built package', () => {
  let built: Record<keyof typeof ENTRIES, BuiltExports>;
  beforeAll(async () => {
    built = await builtExports();
  }, 60_000);

  it.each(Object.keys(ENTRIES) as (keyof typeof ENTRIES)[])(
    '%s exports at run time exactly the values docs/exports.md lists',
    (entry) => {
      expect(built[entry].values).toEqual(documentedExports()[entry].values);
    },
  );

  it.each(Object.keys(ENTRIES) as (keyof typeof ENTRIES)[])(
    '%s declares exactly the types docs/exports.md lists, and nothing it lists as a value is only a type',
    (entry) => {
      expect(built[entry].types).toEqual(documentedExports()[entry].types);
    },
  );

  // The declaration bundler drops `type` from `export type { SomeClass }` (rollup-plugin-dts#311):
  // such a class is exported through a type alias, so that `x instanceof Run` does not compile.
  it.each(Object.keys(ENTRIES) as (keyof typeof ENTRIES)[])('%s declares no value it lacks at run time', (entry) => {
    expect(built[entry].typesDeclaredAsValues).toEqual([]);
  });

  it('docs/exports.md shows their current counts', () => {
    // Compared cell by cell: prettier pads the table's columns.
    const cells = (markdown: string) => markdown.replace(/ *\| */g, '|').replace(/\|-+(?=\|)/g, '|-');
    expect(cells(readFileSync(new URL('../docs/exports.md', import.meta.url), 'utf8'))).toContain(
      cells(countTable(built)),
    );
  });

  it('docs/exports.md names each export once per entry, as a value or a type', () => {
    for (const { values, types } of Object.values(documentedExports())) {
      const names = [...values, ...types];
      expect(new Set(names).size).toBe(names.length);
    }
  });

  // design.md, "Errors": only thrown classes end in `Error`; a failure inside a result is a `…Failure`.
  it('end a name in Error only for a class that is thrown, a BizMsgError', async () => {
    const misnamed: string[] = [];
    for (const [entry, { values, types }] of Object.entries(built)) {
      const file = new URL(`../${ENTRIES[entry as keyof typeof ENTRIES]}.js`, import.meta.url);
      const module = (await import(file.href)) as Record<string, unknown>;
      for (const name of types.filter((type) => type.endsWith('Error')))
        misnamed.push(`${entry}: ${name} is a type only`);
      for (const name of values.filter((value) => value.endsWith('Error'))) {
        const value = module[name] as { prototype?: unknown } | undefined;
        const thrown =
          typeof value === 'function' && value.prototype instanceof Error && value.prototype.name.endsWith('Error');
        if (!thrown) misnamed.push(`${entry}: ${name} is no Error class`);
      }
    }
    expect(misnamed).toEqual([]);
  });
});
