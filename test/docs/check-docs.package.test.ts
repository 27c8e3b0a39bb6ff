import { describe, expect, it } from 'vitest';
import { compileBlocks } from '../../scripts/check-docs/compile.js';
import { extractBlocks, extractCommentBlocks } from '../../scripts/check-docs/extract.js';

const FENCE = '```';

describe('extractBlocks', () => {
  it('finds every TypeScript block with the line of its first code line, and nothing else', () => {
    const markdown = [
      '# Title', // 1
      `${FENCE}sh`,
      'npm test',
      FENCE,
      `${FENCE}ts`, // 5
      'const a = 1;', // 6
      FENCE,
      '- a list item:',
      `  ${FENCE}typescript`, // 9
      '  const b = 2;', // 10
      '  const c = `x`;',
      `  ${FENCE}`,
      '~~~ts', // 13
      '```', // a backtick fence inside a tilde block is code
      '~~~',
      `${FENCE}ts no-check`,
      'fragment(',
      FENCE,
    ].join('\n');
    expect(extractBlocks(markdown, 'DOC.md')).toEqual([
      { file: 'DOC.md', line: 6, code: 'const a = 1;' },
      { file: 'DOC.md', line: 10, code: 'const b = 2;\nconst c = `x`;' },
      { file: 'DOC.md', line: 14, code: '```' },
    ]);
  });

  it('takes a block that is never closed up to the end of the file', () => {
    expect(extractBlocks(`${FENCE}ts\nlet x = 1;\n`, 'a.md')).toEqual([
      { file: 'a.md', line: 2, code: 'let x = 1;\n' },
    ]);
  });
});

describe('extractCommentBlocks', () => {
  it('finds the ```ts blocks of JSDoc comments with their lines in the source, and no code outside comments', () => {
    const source = [
      '/**', // 1
      ' * Sends.',
      ' *',
      ' * @example',
      ` * ${FENCE}ts`, // 5
      " * send('a');", // 6
      ' *   indented();', // 7
      ` * ${FENCE}`,
      ' */',
      `const text = '${FENCE}ts';`, // code, not a comment
      'export function send(to: string) {}',
    ].join('\n');
    expect(extractCommentBlocks(source, 'src/x.ts')).toEqual([
      { file: 'src/x.ts', line: 6, code: "send('a');\n  indented();" },
    ]);
  });
});

describe('compileBlocks', () => {
  it('compiles blocks against the built package under strict and places errors in the Markdown', async () => {
    const good = {
      file: 'GOOD.md',
      line: 10,
      code: "import { Variant2Client } from 'bizmsg';\nconst mine = new Variant2Client({ timeout: 5000 });\nawait mine.account.me();\nawait client.contacts.list().toArray();",
    };
    const bad = {
      file: 'BAD.md',
      line: 20,
      code: "import { Variant2Client } from 'bizmsg';\n\nnew Variant2Client({ timeout: '5s' });\n[1].map((x) => x);\nfunction f(y) { return y; }",
    };
    const errors = await compileBlocks([good, bad]);
    expect(errors.map(({ file, line, column }) => `${file}:${line}:${column}`)).toEqual([
      'BAD.md:22:22',
      'BAD.md:24:12',
    ]);
    expect(errors[0]!.message).toMatch(/^TS2322: Type 'string' is not assignable to type 'number'/);
    expect(errors[1]!.message).toMatch(/^TS7006: Parameter 'y' implicitly has an 'any' type/);
  });

  it("compiles a prelude before the code and still places errors on the code's lines", async () => {
    const example = {
      file: 'src/y.ts',
      line: 30,
      prelude: "import { Variant1Client } from 'bizmsg';\n",
      code: 'new Variant1Client({ maxRetries: true });',
    };
    const errors = await compileBlocks([example]);
    expect(errors.map(({ file, line }) => `${file}:${line}`)).toEqual(['src/y.ts:30']);
  });
});
