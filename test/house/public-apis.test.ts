import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Public runtime APIs only (docs/architecture.md): nothing in src/ reaches into a runtime's
// private state (undici's `Symbol.for('undici.…')` keys) or tells functions apart by their source
// text (`fn.toString()`, `Function.prototype.toString`, `String(fn)`, `${fn}`, `fn + ''`), which a
// runtime upgrade changes without a word.

const root = fileURLToPath(new URL('../..', import.meta.url));

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return /\.(ts|mts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each use of a runtime's internals in `files`, as `path:line: what`. */
function runtimeInternals(files: readonly string[]): string[] {
  const { config } = ts.readConfigFile(join(root, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const program = ts.createProgram(files, { ...options, noEmit: true });
  const checker = program.getTypeChecker();
  /** A function's type: one with call signatures, or the global `Function`. */
  const isFunction = (node: ts.Node) => {
    const type = checker.getTypeAtLocation(node);
    return type.getCallSignatures().length > 0 || checker.typeToString(type) === 'Function';
  };
  const found: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file)!;
    const report = (node: ts.Node, what: string) => {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${relative(root, file)}:${line}: ${what}`);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteralLike(node) && /^undici\./.test(node.text))
        report(node, `undici's private key '${node.text}'`);
      if (ts.isPropertyAccessExpression(node) && node.name.text === 'toString' && isFunction(node.expression)) {
        report(node, `the source text of a function (${node.getText(source)})`);
      }
      if (ts.isCallExpression(node) && node.expression.getText(source) === 'String' && node.arguments[0]) {
        if (isFunction(node.arguments[0])) report(node, `the source text of a function (${node.getText(source)})`);
      }
      if (ts.isTemplateSpan(node) && isFunction(node.expression)) {
        report(node, `the source text of a function (\${${node.expression.getText(source)}})`);
      }
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
        if ([node.left, node.right].some(isFunction))
          report(node, `the source text of a function (${node.getText(source)})`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The rooms of the clients' request path, where answers are decoded by fetch alone. */
const CLIENT_PATH = ['core', 'contract', 'resources', 'schemas', 'variant1', 'variant2'];

/** Each place in `files` that decodes a body itself (node:zlib, DecompressionStream), as `path:line: what`. */
function ownDecoding(files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file, ts.sys.readFile(file)!, ts.ScriptTarget.Latest, true);
    const report = (node: ts.Node, what: string) => {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${relative(root, file)}:${line}: ${what}`);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteralLike(node) && /^(node:)?zlib$/.test(node.text)) report(node, `'${node.text}'`);
      if (ts.isIdentifier(node) && node.text === 'DecompressionStream') report(node, 'DecompressionStream');
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('public runtime APIs only', () => {
  it("the clients' request path decodes no body itself: fetch does", () => {
    expect(ownDecoding(CLIENT_PATH.flatMap((room) => sourcesUnder(join(root, 'src', room))))).toEqual([]);
    const fixture = fileURLToPath(new URL('fixtures/own-decoding.ts', import.meta.url));
    expect(ownDecoding([fixture])).toEqual([
      "test/house/fixtures/own-decoding.ts:3: 'node:zlib'",
      "test/house/fixtures/own-decoding.ts:5: 'zlib'",
      'test/house/fixtures/own-decoding.ts:7: DecompressionStream',
    ]);
  });

  it('src/ reads no undici internals and sniffs no function source', () => {
    expect(runtimeInternals(sourcesUnder(join(root, 'src')))).toEqual([]);
  }, 120_000);

  it('finds each kind where there is one, and leaves other toString calls alone', () => {
    const fixture = fileURLToPath(new URL('fixtures/runtime-internals.ts', import.meta.url));
    expect(runtimeInternals([fixture])).toEqual([
      "test/house/fixtures/runtime-internals.ts:5: undici's private key 'undici.globalDispatcher.1'",
      'test/house/fixtures/runtime-internals.ts:7: the source text of a function (Function.prototype.toString)',
      'test/house/fixtures/runtime-internals.ts:9: the source text of a function (fetch.toString)',
      'test/house/fixtures/runtime-internals.ts:11: the source text of a function (String(fetch))',
      'test/house/fixtures/runtime-internals.ts:13: the source text of a function (${fetch})',
      "test/house/fixtures/runtime-internals.ts:15: the source text of a function ('' + globalThis.fetch)",
    ]);
  }, 60_000);
});
