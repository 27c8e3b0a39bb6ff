/** One fenced TypeScript block of a Markdown file. */
export interface CodeBlock {
  /** The Markdown file, as given. */
  file: string;
  /** 1-based line of the block's first code line in that file. */
  line: number;
  code: string;
  /** Lines compiled before the code (imports a JSDoc example leaves out). */
  prelude?: string;
}

/**
 * The ```ts blocks of the JSDoc comments of a TypeScript source (`@example` blocks), with the
 * lines they have in that file.
 */
export function extractCommentBlocks(source: string, file: string): CodeBlock[] {
  // Comment lines lose their ` * `; other lines become empty, so that line numbers stay.
  const comments = source.split('\n').map((line) => (/^\s*\*(?!\/)/.test(line) ? line.replace(/^\s*\* ?/, '') : ''));
  return extractBlocks(comments.join('\n'), file);
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)(.*)$/;
const TYPESCRIPT = new Set(['ts', 'typescript', 'tsx', 'mts', 'cts']);

/**
 * The ```ts blocks of a Markdown text that are meant to compile: a block whose info string
 * says `no-check` (```ts no-check) is a deliberate fragment and left out.
 */
export function extractBlocks(markdown: string, file: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index]!);
    if (!open) continue;
    const [, indent, fence, language, info] = open as unknown as [string, string, string, string, string];
    const close = lines.findIndex(
      (text, at) =>
        at > index &&
        text.trimStart().startsWith(fence) &&
        text.trim() === fence.charAt(0).repeat(text.trim().length) &&
        text.trim().length >= fence.length,
    );
    const end = close === -1 ? lines.length : close;
    if (TYPESCRIPT.has(language.toLowerCase()) && !/\bno-check\b/.test(info)) {
      const code = lines
        .slice(index + 1, end)
        .map((text) => (text.startsWith(indent) ? text.slice(indent.length) : text));
      blocks.push({ file, line: index + 2, code: code.join('\n') });
    }
    index = end;
  }
  return blocks;
}
