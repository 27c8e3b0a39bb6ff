import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { CodeBlock } from './extract.js';

const root = new URL('../..', import.meta.url).pathname;
const tsc = join(root, 'node_modules/typescript/bin/tsc');

/** A compiler error, placed in the Markdown file it came from. */
export interface DocError {
  file: string;
  line: number;
  column: number;
  message: string;
}

/**
 * Compiles every block as its own module under `strict`, as a user's project would: `bizmsg`
 * is the built package, linked into node_modules and resolved through its exports map.
 */
export async function compileBlocks(blocks: CodeBlock[]): Promise<DocError[]> {
  const project = mkdtempSync(join(tmpdir(), 'bizmsg-docs-'));
  try {
    // An ES module project, as most new ones are: snippets may use top-level await.
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    linkDependencies(join(project, 'node_modules'));
    const names = blocks.map((block, index) => {
      const name = `block${index}.ts`;
      // `export {}` makes every block a module of its own, so that names do not clash.
      writeFileSync(join(project, name), `${block.prelude ?? ''}${block.code}\nexport {};\n`);
      return name;
    });
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig(names)));
    const output = await run(process.execPath, [tsc, '-p', project, '--pretty', 'false']);
    return parseErrors(output, blocks);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

/**
 * The project's node_modules as the snippets' own, so that what they import besides bizmsg
 * (express, undici, ...) resolves as in a user's project, and bizmsg as the package itself.
 */
function linkDependencies(modules: string): void {
  mkdirSync(modules);
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (!name.startsWith('.')) symlinkSync(join(root, 'node_modules', name), join(modules, name), 'dir');
  }
  symlinkSync(root, join(modules, 'bizmsg'), 'dir');
}

function tsconfig(files: string[]) {
  return {
    compilerOptions: {
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      lib: ['es2023', 'dom', 'dom.iterable'],
      types: ['node'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    },
    files: [...files, join(root, 'scripts/check-docs/snippet-context.ts')],
  };
}

function parseErrors(output: string, blocks: CodeBlock[]): DocError[] {
  const errors: DocError[] = [];
  for (const text of output.split('\n')) {
    const match = /^(.*?)\((\d+),(\d+)\): error (.*)$/.exec(text.trim());
    if (!match) continue;
    const [, path, line, column, message] = match as unknown as [string, string, string, string, string];
    const index = /^block(\d+)\.ts$/.exec(basename(path))?.[1];
    const block = index === undefined ? undefined : blocks[Number(index)];
    const preludeLines = block?.prelude?.split('\n').length ?? 1;
    errors.push(
      block
        ? { file: block.file, line: block.line + Number(line) - preludeLines, column: Number(column), message }
        : { file: path, line: Number(line), column: Number(column), message },
    );
  }
  if (errors.length === 0 && output.trim() !== '')
    errors.push({ file: 'tsc', line: 0, column: 0, message: output.trim() });
  return errors;
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(command, args, { maxBuffer: 16 * 1024 * 1024 }, (_, stdout, stderr) => resolve(`${stdout}${stderr}`));
  });
}
