// Marks `type` on every name an entry's declarations export that its module lacks at run time.
// The declaration bundler drops `type` from `export type { Run }` (rollup-plugin-dts#311): a class
// users only receive (a client's resources, a run, the mock's clock) would be declared a value, and
// `x instanceof Run` would compile, then throw. Run by `npm run build`, after tsup.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * Each entry's module and its declarations, ESM and CJS (bizmsg/webhooks' Web build is typed by its
 * Node build's declarations, and exports the same names).
 */
const ENTRIES = ['index', 'webhooks/index', 'mock/index', 'mock/web', 'mock/browser', 'redis/index', 'bulk/index'];
const dist = new URL('../dist/', import.meta.url);

let marked = 0;
for (const entry of ENTRIES) {
  const values = new Set(Object.keys(await import(new URL(`${entry}.js`, dist).href)));
  for (const extension of ['.d.ts', '.d.cts']) {
    const url = new URL(`${entry}${extension}`, dist);
    if (!existsSync(url)) throw new Error(`type-only-exports: dist/${entry}${extension} is missing`);
    const text = readFileSync(url, 'utf8');
    const out = text.replace(/^export \{([^}]*)\}/gm, (_, list) => `export {${markTypes(list, values)}}`);
    if (out !== text) writeFileSync(url, out);
  }
}
if (marked === 0) throw new Error('type-only-exports: no type export found to mark; the declarations changed shape');

/** `list` of export specifiers with `type ` before each exported name `values` lacks. */
function markTypes(list, values) {
  return list
    .split(',')
    .map((specifier) => {
      const name = specifier
        .trim()
        .split(/\s+as\s+/)
        .pop();
      if (name === '' || specifier.trim().startsWith('type ') || values.has(name)) return specifier;
      marked += 1;
      return specifier.replace(/^(\s*)/, '$1type ');
    })
    .join(',');
}
