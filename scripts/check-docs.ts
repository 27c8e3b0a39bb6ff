// Compiles every ```ts block of README.md and docs/*.md under strict against the built package,
// so the docs cannot drift from the API. Usage: tsx scripts/check-docs.ts [file.md ...]
// (run after `npm run build`; part of `npm test`). Mark a deliberate fragment ```ts no-check.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compileBlocks } from './check-docs/compile.js';
import { extractBlocks } from './check-docs/extract.js';

const root = new URL('..', import.meta.url).pathname;
const files = process.argv.length > 2 ? process.argv.slice(2) : defaultFiles();
const blocks = files.flatMap((file) => extractBlocks(readFileSync(file, 'utf8'), relative(root, file) || file));
const errors = await compileBlocks(blocks);
for (const error of errors) console.error(`${error.file}:${error.line}:${error.column} - error ${error.message}`);
console.log(`check-docs: ${blocks.length} TypeScript blocks in ${files.length} files, ${errors.length} errors`);
process.exitCode = errors.length === 0 ? 0 : 1;

function defaultFiles(): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join(root, 'docs', name));
  return [join(root, 'README.md'), ...docs];
}
