// The fields of an interface as its source file declares them, for the tests that hold each field's
// JSDoc to the contract's marks (test/contract/record-docs.test.ts, event-docs.test.ts).
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** One declared field: its JSDoc as written, whether it is optional, and its type as written. */
export interface DeclaredMember {
  readonly doc: string;
  readonly optional: boolean;
  readonly type: string;
}

/** The interfaces a source file declares, and a reader of each one's fields. */
export interface DeclaredInterfaces {
  /** Every interface's name, in the order of the file. */
  readonly names: readonly string[];
  /** The fields of interface `name`, with those of the interfaces it extends in the file (a field declared again wins). */
  membersOf(name: string): Map<string, DeclaredMember>;
}

/** The interfaces declared in the file at `url`. */
export function declaredInterfaces(url: URL): DeclaredInterfaces {
  const source = ts.createSourceFile(url.pathname, readFileSync(url, 'utf8'), ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
  });
  const membersOf = (name: string, into = new Map<string, DeclaredMember>()): Map<string, DeclaredMember> => {
    const declaration = interfaces.get(name);
    if (declaration === undefined) throw new Error(`no interface ${name} in ${url.pathname}`);
    for (const clause of declaration.heritageClauses ?? [])
      for (const type of clause.types) membersOf(type.expression.getText(source), into);
    for (const member of declaration.members) {
      if (!ts.isPropertySignature(member)) continue;
      const doc = ts
        .getJSDocCommentsAndTags(member)
        .map((node) => node.getText(source))
        .join(' ');
      into.set(member.name.getText(source), {
        doc,
        optional: member.questionToken !== undefined,
        type: member.type?.getText(source) ?? '',
      });
    }
    return into;
  };
  return { names: [...interfaces.keys()], membersOf: (name) => membersOf(name) };
}
