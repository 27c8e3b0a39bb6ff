// npm run bench [-- --quick]: side-by-side figures, printed as a table and written to bench/results.json.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { measureImport } from './import-cost.js';
import { table, type BenchOptions, type Row } from './lib.js';
import { measureMock } from './mock.js';
import { measureOverhead } from './overhead.js';
import { measurePacing } from './pacing.js';
import { measurePagination } from './pagination.js';
import { measureSize } from './size.js';
import { measureVerify } from './verify.js';

const options: BenchOptions = { quick: process.argv.includes('--quick'), root: fileURLToPath(new URL('..', import.meta.url)) };
const figures = [measureSize, measureImport, measureOverhead, measurePacing, measurePagination, measureVerify, measureMock];

const rows: Row[] = [];
for (const measure of figures) {
  const started = performance.now();
  rows.push(...(await measure(options)));
  console.error(`${measure.name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

console.log(table(rows));
const missed = rows.filter((row) => row.target && !row.target.met);
console.log(missed.length === 0 ? '\nEvery target met.' : `\nTargets missed in this run: ${missed.map((r) => `${r.figure} (${r.subject})`).join('; ')}`);
const file = options.quick ? 'bench/results.quick.json' : 'bench/results.json';
writeFileSync(new URL(`../${file}`, import.meta.url), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, quick: options.quick, rows }, null, 2)}\n`);
console.log(`Written to ${file}.`);
