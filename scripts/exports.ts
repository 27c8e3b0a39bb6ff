// Counts the names each entry of the built package exports, runtime values and types apart, and
// reads the list docs/exports.md gives; test/exports.package.test.ts checks that the two agree.
// Usage: tsx scripts/exports.ts (after `npm run build`): prints the table of counts docs/exports.md shows.
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/** Each entry a user imports, by its built file (the Web and browser builds are entries too). */
export const ENTRIES = {
  bizmsg: 'dist/index',
  'bizmsg (web)': 'dist/web',
  'bizmsg/webhooks': 'dist/webhooks/index',
  'bizmsg/webhooks (web)': 'dist/webhooks/web',
  'bizmsg/mock': 'dist/mock/index',
  'bizmsg/mock (web)': 'dist/mock/web',
  'bizmsg/mock (browser)': 'dist/mock/browser',
  'bizmsg/redis': 'dist/redis/index',
  'bizmsg/bulk': 'dist/bulk/index',
} as const;

/**
 * The declarations an entry is typed by, where they are another build's: the Web builds of bizmsg
 * and bizmsg/webhooks are typed by their full builds' under every export condition (they differ at
 * run time only).
 */
const DECLARED_BY: Partial<Record<keyof typeof ENTRIES, string>> = {
  'bizmsg (web)': 'dist/index',
  'bizmsg/webhooks (web)': 'dist/webhooks/index',
};

/** An entry's name as docs/exports.md heads it. */
export type Entry = keyof typeof ENTRIES;

/** What one entry exports: the names there at run time, and those that are types only. */
export interface EntryExports {
  values: string[];
  types: string[];
}

/** What one entry of the built package exports, and the types its .d.ts declares as values. */
export interface BuiltExports extends EntryExports {
  /** Types declared as values (a class): `instanceof` on one would compile, then throw. */
  typesDeclaredAsValues: string[];
}

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The exports of every entry, each list sorted: the values are what its JavaScript exports at run
 * time, the types the rest of what its .d.ts exports, and of those the ones declared as values (none,
 * once scripts/type-only-exports.mjs has marked them `type`, which the declaration bundler drops).
 */
export async function builtExports(): Promise<Record<Entry, BuiltExports>> {
  const typedBy = (entry: Entry) => DECLARED_BY[entry] ?? ENTRIES[entry];
  const files = (Object.keys(ENTRIES) as Entry[]).map((entry) => `${root}${typedBy(entry)}.d.ts`);
  const program = ts.createProgram(files, { module: ts.ModuleKind.NodeNext, strict: true, noEmit: true });
  const checker = program.getTypeChecker();
  const result = {} as Record<Entry, BuiltExports>;
  for (const [entry, file] of Object.entries(ENTRIES) as [Entry, string][]) {
    const source = program.getSourceFile(`${root}${typedBy(entry)}.d.ts`);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${file}.d.ts is missing: run \`npm run build\` first.`);
    const values = Object.keys((await import(pathToFileURL(`${root}${file}.js`).href)) as object).sort();
    const typeSymbols = checker.getExportsOfModule(module).filter((symbol) => !values.includes(symbol.name));
    const types = typeSymbols.map((symbol) => symbol.name).sort();
    const typesDeclaredAsValues = typeSymbols
      .filter((symbol) => declaredAsValue(checker, symbol))
      .map((symbol) => symbol.name)
      .sort();
    result[entry] = { values, types, typesDeclaredAsValues };
  }
  return result;
}

/**
 * True when an exported name can be used as a value: it names a class (or other value) and no
 * export on the way to it is type-only (`export { type Run }`), which TypeScript would refuse.
 */
function declaredAsValue(checker: ts.TypeChecker, exported: ts.Symbol): boolean {
  let symbol: ts.Symbol | undefined = exported;
  while (symbol !== undefined && (symbol.flags & ts.SymbolFlags.Alias) !== 0) {
    const typeOnly = symbol.declarations?.some(
      (declaration) =>
        ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly),
    );
    if (typeOnly) return false;
    symbol = checker.getImmediateAliasedSymbol(symbol);
  }
  return symbol !== undefined && (symbol.flags & ts.SymbolFlags.Value) !== 0;
}

/** The table of counts, one row per entry and a total of distinct names over all of them. */
export function countTable(exports: Record<Entry, EntryExports>): string {
  const rows = Object.entries(exports).map(
    ([entry, { values, types }]) =>
      `| ${entry} | ${values.length} | ${types.length} | ${values.length + types.length} |`,
  );
  const distinct = (pick: (e: EntryExports) => string[]) =>
    new Set(Object.values(exports).flatMap((e) => pick(e).map((name) => name))).size;
  const all = (e: EntryExports) => [...e.values, ...e.types];
  return [
    '| entry | values | types | names |',
    '|---|---|---|---|',
    ...rows,
    `| distinct names over all entries | ${distinct((e) => e.values)} | ${distinct((e) => e.types)} | ${distinct(all)} |`,
  ].join('\n');
}

/** The builds of bizmsg/mock a row's `builds` cell puts a name in (no cell: every build). */
const BUILDS: Record<string, Entry[]> = {
  all: ['bizmsg/mock', 'bizmsg/mock (web)', 'bizmsg/mock (browser)'],
  node: ['bizmsg/mock'],
  browser: ['bizmsg/mock (browser)'],
};

/**
 * The names docs/exports.md lists, per entry: each table row under a `## \`entry\`` heading whose
 * first cell is a name in backticks and whose second says `value` or `type`. bizmsg and bizmsg/webhooks
 * each have one list for both their builds; the rows of bizmsg/mock say in a `builds` column which builds have them.
 */
export function documentedExports(
  markdown = readFileSync(`${root}docs/exports.md`, 'utf8'),
): Record<Entry, EntryExports> {
  const result = {} as Record<Entry, EntryExports>;
  for (const entry of Object.keys(ENTRIES) as Entry[]) result[entry] = { values: [], types: [] };
  let heading: string | undefined;
  let columns: string[] = [];
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) heading = /^## `(bizmsg[^`]*)`$/.exec(line)?.[1];
    const cells = line.startsWith('|')
      ? line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim())
      : [];
    if (cells[0] === 'name') columns = cells;
    const name = /^`(\w+)`$/.exec(cells[0] ?? '')?.[1];
    if (!heading || !name) continue;
    const kind = cells[columns.indexOf('kind')];
    if (kind !== 'value' && kind !== 'type')
      throw new Error(`docs/exports.md: ${name} is of kind ${kind}, not value or type`);
    const builds = cells[columns.indexOf('builds')];
    const entries: Entry[] =
      heading === 'bizmsg/mock'
        ? (BUILDS[builds ?? ''] ?? [])
        : heading === 'bizmsg/webhooks'
          ? ['bizmsg/webhooks', 'bizmsg/webhooks (web)']
          : heading === 'bizmsg'
            ? ['bizmsg', 'bizmsg (web)']
            : [heading as Entry];
    if (entries.length === 0 || !entries.every((entry) => entry in result))
      throw new Error(`docs/exports.md: ${name} under ${heading} (builds ${builds}) names no entry`);
    for (const entry of entries) result[entry][kind === 'value' ? 'values' : 'types'].push(name);
  }
  for (const lists of Object.values(result)) for (const list of [lists.values, lists.types]) list.sort();
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(countTable(await builtExports()));
