// Compiles every ```ts block of README.md and docs/*.md, and every JSDoc @example of src/,
// under strict against the built package, so the docs cannot drift from the API.
// Usage: tsx scripts/check-docs.ts (npm run check:docs; it builds first when the build is out of date).
// Mark a deliberate fragment ```ts no-check.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compileBlocks } from './check-docs/compile.js';
import { extractBlocks, extractCommentBlocks } from './check-docs/extract.js';
import { built } from './package-once.js';

built();
const root = new URL('..', import.meta.url).pathname;
const markdown = [join(root, 'README.md'), ...filesIn('docs', '.md')];
const sources = filesIn('src', '.ts');
const prelude = await examplePrelude();
const blocks = [
  ...markdown.flatMap((file) => extractBlocks(readFileSync(file, 'utf8'), relative(root, file))),
  ...sources.flatMap((file) =>
    extractCommentBlocks(readFileSync(file, 'utf8'), relative(root, file)).map((block) => ({ ...block, prelude })),
  ),
];
const errors = await compileBlocks(blocks);
for (const error of errors) console.error(`${error.file}:${error.line}:${error.column} - error ${error.message}`);
console.log(
  `check-docs: ${blocks.length} TypeScript blocks in ${markdown.length} Markdown files and src/ JSDoc, ${errors.length} errors`,
);
process.exitCode = errors.length === 0 ? 0 : 1;

function filesIn(folder: string, extension: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(extension))
    .sort()
    .map((name) => join(root, folder, name));
}

/**
 * A JSDoc example shows the call, not its imports: it gets every export of every entry (a name
 * several entries export, such as InvalidArgumentError, from the first), and express.
 */
async function examplePrelude(): Promise<string> {
  const lines = ["import express from 'express';"];
  const seen = new Set<string>();
  for (const entry of ['bizmsg', 'bizmsg/webhooks', 'bizmsg/mock', 'bizmsg/bulk']) {
    const names = Object.keys((await import(entry)) as object).filter((name) => !seen.has(name));
    for (const name of names) seen.add(name);
    lines.push(`import { ${names.join(', ')} } from '${entry}';`);
  }
  return `${lines.join('\n')}\n`;
}
