// Figure 16: what the declarations cost a user's compiler and tell its reader, on the packed package
// beside openai and stripe: type instantiations of importing each entry and of one send and one
// list, with skipLibCheck off (a strict project checks every declaration it imports); the lines and
// names a wrapper's declaration emit shows; and the share of data fields with JSDoc, per entry.
// The compiler is deterministic: one program each, no rounds.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { ratio, type BenchOptions, type Row } from './lib.js';
import { packedProject } from './packed.js';

const require = createRequire(import.meta.url);

/** A strict user project's options; @types/node from this repository (the project links no @types). */
function options(project: string): ts.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    typeRoots: [join(dirname(require.resolve('@types/node/package.json')), '..')],
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    baseUrl: project,
  };
}

/** Writes `source` as `name` in the project and returns the instantiations of checking it alone. */
function instantiations(project: string, name: string, source: string): number {
  const file = join(project, 'types', name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, source);
  const program = ts.createProgram([file], options(project));
  const errors = ts.getPreEmitDiagnostics(program);
  if (errors.length > 0) throw new Error(`${name}: ${ts.formatDiagnostics(errors, host)}`);
  return program.getInstantiationCount();
}

const host: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => process.cwd(),
  getNewLine: () => '\n',
};

/** Each entry imported whole, as `import * as`, and every export named, so that each is checked. */
const ENTRIES: Record<string, string> = {
  bizmsg: 'bizmsg',
  'bizmsg/webhooks': 'bizmsg/webhooks',
  'bizmsg/mock': 'bizmsg/mock',
  'bizmsg/redis': 'bizmsg/redis',
  'bizmsg/bulk': 'bizmsg/bulk',
  openai: 'openai',
  stripe: 'stripe',
};

/** One send and one list walked, in each library, written as its README writes them. */
const CALLS: Record<'bizmsg' | 'openai' | 'stripe', { setup: string; calls: string }> = {
  bizmsg: {
    setup: "import { Variant2Client } from 'bizmsg';\nconst client = new Variant2Client({ apiKey: 'k' });",
    calls:
      "const sent = await client.messages.sendText({ messaging_account_id: 1, to: '+14155550100', body: 'Hi' });\n" +
      'for await (const contact of client.contacts.list()) console.log(contact.phone, sent.status);',
  },
  openai: {
    setup: "import OpenAI from 'openai';\nconst client = new OpenAI({ apiKey: 'k' });",
    calls:
      "const done = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });\n" +
      'for await (const model of client.models.list()) console.log(model.id, done.id);',
  },
  stripe: {
    setup: "import Stripe from 'stripe';\nconst client = new Stripe('k');",
    calls:
      "const made = await client.customers.create({ email: 'a@example.com' });\n" +
      'for await (const customer of client.customers.list()) console.log(customer.id, made.id);',
  },
};

/** Three one-line wrappers, as a user's module exports them; what their declarations say. */
const WRAPPERS = `import { Variant2Client } from 'bizmsg';
const client = new Variant2Client({ apiKey: 'k' });
export const getContact = (id: string) => client.contacts.get(id);
export const sendHello = (to: string) => client.messages.sendText({ messaging_account_id: 1, to, body: 'Hi' });
export const contacts = () => client.contacts.list();
`;

/** The declaration file tsc emits for `source`. */
function declarationOf(project: string, source: string): string {
  const file = join(project, 'types', 'wrappers.ts');
  writeFileSync(file, source);
  let emitted = '';
  const program = ts.createProgram([file], {
    ...options(project),
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
  });
  program.emit(undefined, (name, text) => {
    if (name.endsWith('.d.ts')) emitted = text;
  });
  return emitted;
}

/** Data fields (properties, not methods) of an entry's exported interfaces and object types, and how many have JSDoc. */
function jsdocCoverage(project: string, entry: string): { documented: number; fields: number } {
  const file = join(project, 'types', 'coverage.ts');
  writeFileSync(file, `export * from '${entry}';\n`);
  const program = ts.createProgram([file], options(project));
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  const seen = new Set<ts.Symbol>();
  let documented = 0;
  let fields = 0;
  const walk = (type: ts.Type, depth: number) => {
    if (depth > 3) return;
    for (const part of type.isUnion() || type.isIntersection() ? type.types : [type]) {
      if (!(part.flags & ts.TypeFlags.Object) || part.getCallSignatures().length > 0) continue;
      // Below an exported type, only the object types written inline in it are its own fields.
      if (depth > 0 && !part.getSymbol()?.declarations?.some((d) => ts.isTypeLiteralNode(d))) continue;
      for (const property of part.getProperties()) {
        const declaration = property.valueDeclaration ?? property.declarations?.[0];
        if (seen.has(property) || declaration === undefined || property.name.startsWith('#')) continue;
        // Data fields only: methods are documented as API, and the lib's own types are not ours.
        if (ts.isMethodSignature(declaration) || ts.isMethodDeclaration(declaration)) continue;
        if (declaration.getSourceFile().fileName.includes('/typescript/lib/')) continue;
        if (ts.isGetAccessor(declaration)) continue;
        seen.add(property);
        fields += 1;
        if (property.getDocumentationComment(checker).length > 0) documented += 1;
        else if (process.env.BIZMSG_BENCH_UNDOCUMENTED)
          console.log(`undocumented: ${entry} ${checker.typeToString(part)}.${property.name}`);
        walk(checker.getTypeOfSymbolAtLocation(property, declaration), depth + 1);
      }
    }
  };
  for (const symbol of checker.getExportsOfModule(module)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (!(target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))) continue;
    walk(checker.getDeclaredTypeOfSymbol(target), 0);
  }
  return { documented, fields };
}

/** Figure 16: compiler cost and documentation of the declarations, packed package, beside openai and stripe. */
export async function measureTypeCost(_: BenchOptions): Promise<Row[]> {
  const project = await packedProject();
  const bare = instantiations(project, 'bare.ts', 'export {};\n');
  const imported = Object.fromEntries(
    Object.entries(ENTRIES).map(([name, specifier]) => [
      name,
      instantiations(
        project,
        `${name.replace('/', '-')}.ts`,
        `import * as all from '${specifier}';\nexport type All = typeof all;\n`,
      ) - bare,
    ]),
  );
  const openai = imported.openai!;
  const rows: Row[] = [];
  for (const [name, value] of Object.entries(imported)) {
    const ours = name.startsWith('bizmsg');
    rows.push({
      figure: '16',
      subject: `type instantiations importing ${name}, skipLibCheck off`,
      value,
      unit: '',
      ...(name === 'openai' ? {} : { baseline: { name: 'openai', value: openai, ratio: ratio(value, openai) } }),
      ...(ours ? { target: { text: '<= 2x openai', met: value <= 2 * openai } } : {}),
    });
  }
  const callCost = Object.fromEntries(
    Object.entries(CALLS).map(([name, { setup, calls }]) => {
      const before = instantiations(project, `${name}-setup.ts`, `${setup}\nexport { client };\n`);
      const after = instantiations(
        project,
        `${name}-calls.ts`,
        `${setup}\nexport async function run() {\n${calls}\n}\n`,
      );
      return [name, after - before];
    }),
  );
  for (const [name, value] of Object.entries(callCost)) {
    rows.push({
      figure: '16',
      subject: `type instantiations of one send and one list walked, ${name}`,
      value,
      unit: '',
      ...(name === 'openai'
        ? {}
        : { baseline: { name: 'openai', value: callCost.openai!, ratio: ratio(value, callCost.openai!) } }),
    });
  }
  const emitted = declarationOf(project, WRAPPERS);
  const lines = emitted.trim().split('\n').length;
  const named =
    /ApiPromise<import\("bizmsg"\)\.Contact>/.test(emitted) && /ApiPromise<import\("bizmsg"\)\.Message>/.test(emitted);
  rows.push({
    figure: '16',
    subject: 'declaration emit of three one-line wrappers (get, sendText, list)',
    value: lines,
    unit: 'lines',
    target: { text: 'names Contact and Message, one line a wrapper', met: named && lines <= 3 },
  });
  for (const entry of Object.keys(ENTRIES).filter((name) => name.startsWith('bizmsg'))) {
    const { documented, fields } = jsdocCoverage(project, entry);
    rows.push({
      figure: '16',
      subject: `data fields with JSDoc, ${entry} (${documented} of ${fields})`,
      value: Math.round((documented / fields) * 1000) / 10,
      unit: '%',
      target: { text: '100 %', met: documented === fields },
    });
  }
  return rows;
}
