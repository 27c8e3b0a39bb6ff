// npm run bench [-- --quick] [-- --only=3]: side-by-side figures, printed as a table and written to
// bench/results.json. Figures 1, 2, 3 and 9 measure the packed package in a fresh project (bench/packed.ts),
// 2, 3 and 9 on this Node and on Node 22 and 24 when the runtime matrix installed them. The build
// and the tarball are the ones scripts/package-once.ts keeps: made here only when out of date.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packed } from '../scripts/package-once.js';
import { measureBulk } from './bulk.js';
import { measureColdStart } from './cold-start.js';
import { measureContactsSync } from './contacts-sync.js';
import { measureDrift } from './drift.js';
import { measureDashboard } from './dashboard.js';
import { measureImport } from './import-cost.js';
import { table, type BenchOptions, type Row } from './lib.js';
import { measureMock } from './mock.js';
import { measureOverhead } from './overhead.js';
import { measurePacing } from './pacing.js';
import { measurePagination } from './pagination.js';
import { measureProxy } from './proxy.js';
import { measureRedis } from './redis.js';
import { measureSize } from './size.js';
import { measureStatus } from './status.js';
import { measureTypeCost } from './type-cost.js';
import { measureVerify } from './verify.js';

// The build and the tarball the figures measure, made first when the sources changed since the last build.
packed();

const options: BenchOptions = {
  quick: process.argv.includes('--quick'),
  root: fileURLToPath(new URL('..', import.meta.url)),
};
const all = {
  1: measureSize,
  2: measureImport,
  3: measureOverhead,
  4: measurePacing,
  5: measurePagination,
  6: measureVerify,
  7: measureMock,
  8: measureRedis,
  9: measureColdStart,
  10: measureDashboard,
  11: measureStatus,
  12: measureBulk,
  13: measureContactsSync,
  14: measureDrift,
  15: measureProxy,
  16: measureTypeCost,
};
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const figures = Object.entries(all)
  .filter(([figure]) => only === undefined || only.includes(figure))
  .map(([, measure]) => measure);

const rows: Row[] = [];
for (const measure of figures) {
  const started = performance.now();
  rows.push(...(await measure(options)));
  console.error(`${measure.name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

console.log(table(rows));
const missed = rows.filter((row) => row.target && !row.target.met);
console.log(
  missed.length === 0
    ? '\nEvery target met.'
    : `\nTargets missed in this run: ${missed.map((r) => `${r.figure} (${r.subject})`).join('; ')}`,
);
const major = process.versions.node.split('.')[0];
const file = options.quick
  ? 'bench/results.quick.json'
  : major !== '20'
    ? `bench/results.node${major}.json`
    : only !== undefined
      ? 'bench/results.local.json'
      : 'bench/results.json';
writeFileSync(
  new URL(`../${file}`, import.meta.url),
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, quick: options.quick, rows }, null, 2)}\n`,
);
console.log(`Written to ${file}.`);
