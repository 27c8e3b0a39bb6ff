import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const src = join(root, 'src');

/** Every directory under src/, and the TypeScript sources (the page's `.tsx` too) directly in each. */
function rooms(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  (function walk(dir: string) {
    const files: string[] = [];
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|mts|tsx)$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
    }
    found.set(dir, files);
  })(src);
  return found;
}

/** Relative imports of a source file (type-only ones too: a cycle of types is a cycle for a reader). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const match of text.matchAll(/(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"](\.[^'"]+)['"]/g)) {
    const target = normalize(join(dirname(file), match[1]!)).replace(/\.m?js$/, '');
    for (const candidate of [`${target}.ts`, `${target}.mts`, `${target}.tsx`, join(target, 'index.ts')]) {
      try {
        if (statSync(candidate).isFile()) {
          out.push(candidate);
          break;
        }
      } catch {
        // not this one
      }
    }
  }
  return out;
}

function cycles(files: readonly string[]): string[][] {
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const state = new Map<string, 'open' | 'done'>();
  const found: string[][] = [];
  const visit = (file: string, path: string[]) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (state.get(next) === undefined) visit(next, path);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file, []);
  return found.map((cycle) => cycle.map((file) => relative(root, file)));
}

describe('the house of src/', () => {
  const all = rooms();

  it('has no import cycle, type-only imports included', () => {
    expect(cycles([...all.values()].flat())).toEqual([]);
  });

  it('finds a cycle of type-only imports where there is one', () => {
    const fixtures = fileURLToPath(new URL('fixtures/', import.meta.url));
    expect(cycles([join(fixtures, 'cycle-a.ts'), join(fixtures, 'cycle-b.ts')])).toEqual([
      ['test/house/fixtures/cycle-a.ts', 'test/house/fixtures/cycle-b.ts', 'test/house/fixtures/cycle-a.ts'],
    ]);
  });

  it('keeps at most 15 source files directly in any folder', () => {
    const crowded = [...all]
      .filter(([, files]) => files.length > 15)
      .map(([dir, files]) => `${relative(root, dir)}: ${files.length}`);
    expect(crowded).toEqual([]);
  });

  it('opens every room under src/ with a README that says what it may import', () => {
    const rooms = [...all.keys()].filter((dir) => dir !== src);
    const missing = rooms.filter((dir) => {
      try {
        return !readFileSync(join(dir, 'README.md'), 'utf8').startsWith('# ');
      } catch {
        return true;
      }
    });
    expect(missing.map((dir) => relative(root, dir))).toEqual([]);
    const topLevel = rooms.filter((dir) => dirname(dir) === src);
    const silent = topLevel.filter((dir) => !/May import/.test(readFileSync(join(dir, 'README.md'), 'utf8')));
    expect(silent.map((dir) => relative(root, dir))).toEqual([]);
  });

  it('opens every source file with a comment saying what it holds', () => {
    const bare = [...all.values()]
      .flat()
      .filter((file) => !/^(\/\/|#!)/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(bare).toEqual([]);
  });
});

/** The spec's error codes (and their classes) that name a phone number or a template: core/errors/ has one class per code. */
const SPEC_CODE_NAMES = new Set(['INVALID_PHONE', 'InvalidPhoneError', 'TEMPLATE_NOT_FOUND', 'TemplateNotFoundError']);

/** The identifiers of `text` (comments and strings left out) that name a phone number or a template. */
function businessNames(text: string): string[] {
  const found = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && /phone|template/i.test(node.text) && !SPEC_CODE_NAMES.has(node.text))
      found.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest));
  return [...found];
}

/** The rooms of core/ in the order of a call's loop, from the clients down (core/README.md): each imports only those after it. */
const CORE_DOWNWARD = ['call', 'transport', 'rate-limit', 'errors', 'wire'] as const;

/** Each import between rooms of `core` (src/core/) that goes back up the order, as `from -> to`. */
function upwardImports(files: readonly string[], core = join(src, 'core')): string[] {
  const roomOf = (file: string) => relative(core, file).split(/[\\/]/)[0]!;
  const rank = (file: string) => CORE_DOWNWARD.indexOf(roomOf(file) as (typeof CORE_DOWNWARD)[number]);
  return files.flatMap((file) =>
    importsOf(file)
      .filter((target) => target.startsWith(core) && roomOf(target) !== roomOf(file))
      .filter((target) => rank(target) <= rank(file))
      .map((target) => `${relative(root, file)} -> ${relative(root, target)}`),
  );
}

describe('core/', () => {
  const core = [...rooms()].filter(([dir]) => dir.startsWith(join(src, 'core')));

  it('reads in one direction: call/ -> transport/ -> rate-limit/ -> errors/ -> wire/, never back up', () => {
    expect(
      core
        .filter(([dir]) => dirname(dir) === join(src, 'core'))
        .map(([dir]) => relative(join(src, 'core'), dir))
        .sort(),
    ).toEqual([...CORE_DOWNWARD].sort());
    expect(upwardImports(core.flatMap(([, files]) => files))).toEqual([]);
  });

  it('finds an import back up, type-only ones too', () => {
    const fixtures = fileURLToPath(new URL('fixtures/core/', import.meta.url));
    const files = [join(fixtures, 'errors', 'back-up.ts'), join(fixtures, 'call', 'client.ts')];
    expect(upwardImports(files, fixtures)).toEqual([
      'test/house/fixtures/core/errors/back-up.ts -> test/house/fixtures/core/call/client.ts',
    ]);
  });

  it('names no phone number and no template (the clients plug them in), but the error classes of spec codes', () => {
    const named = core
      .flatMap(([, files]) => files)
      .flatMap((file) => businessNames(readFileSync(file, 'utf8')).map((name) => `${relative(root, file)}: ${name}`));
    expect(named).toEqual([]);
  });

  it('finds such a name where there is one', () => {
    const old =
      'interface CallSpec { phones?: readonly string[]; template?: SentTemplate } // phone\nclass TemplateNotFoundError {}';
    expect(businessNames(old)).toEqual(['phones', 'template', 'SentTemplate']);
  });
});

/** A method or path written out in a call: the facts `contract/routes.ts` holds. */
const RESTATED_ROUTE = /\b(method: '(GET|POST|PUT|DELETE)'|path: ')/g;

describe('the clients', () => {
  it("take each endpoint's method, path and schema from contract/routes.ts, and restate none", () => {
    const clients = [...rooms()].filter(([dir]) =>
      ['variant1', 'variant2', 'resources'].some((room) => dir === join(src, room)),
    );
    const restated = clients
      .flatMap(([, files]) => files)
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(RESTATED_ROUTE)].map((m) => `${relative(root, file)}: ${m[0]}`),
      );
    expect(restated).toEqual([]);
  });
});

/** What each inner room of the mock may import of the mock (src/mock/README.md): dependencies point inward. */
const MOCK_INWARD: Record<string, readonly string[]> = {
  calls: ['calls'],
  wire: ['wire'],
  state: ['state', 'calls', 'wire', 'options.ts'],
  rules: ['rules', 'state', 'calls', 'wire', 'options.ts'],
};

/** The room of a file under src/mock/ (its first folder, or its own name at the top). */
function mockRoom(file: string): string | undefined {
  const path = relative(join(src, 'mock'), file);
  return path.startsWith('..') ? undefined : path.split(/[\\/]/)[0];
}

describe('the rooms of the mock', () => {
  it('point inward: calls/ and wire/ <- state/ <- rules/, and no inner room imports control/, a face or service.ts', () => {
    const outward = [...rooms().values()].flat().flatMap((file) => {
      const allowed = MOCK_INWARD[mockRoom(file) ?? ''];
      if (allowed === undefined) return [];
      return importsOf(file)
        .filter((target) => mockRoom(target) !== undefined && !allowed.includes(mockRoom(target)!))
        .map((target) => `${relative(root, file)} -> ${relative(root, target)}`);
    });
    expect(outward).toEqual([]);
  });
});

describe('the lint rule that keeps each room to what it may import', () => {
  // Only the import rules matter here; the files are virtual, so type-aware rules are off.
  const eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });
  const findings = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: join(root, file) });
    return result!.messages.map((m) => m.ruleId).filter((rule) => rule?.endsWith('no-restricted-imports'));
  };
  const restricted = ['@typescript-eslint/no-restricted-imports'];

  it.each([
    ['src/shared/x.ts', "import { ERROR_CODES } from '../contract/error-codes.js';"],
    ['src/schemas/x.ts', "import { ERROR_CODES } from '../contract/error-codes.js';"],
    ['src/contract/x.ts', "import { HttpClient } from '../core/call/http-client.js';"],
    ['src/core/call/x.ts', "import { MockService } from '../../mock/service.js';"],
    ['src/core/call/x.ts', "import { verifyWebhook } from '../../webhooks/signature/verify.js';"],
    ['src/core/call/x.ts', "import { phoneDigits } from '../../shared/phone.js';"],
    ['src/core/errors/x.ts', "import type { TemplateCatalog } from '../../templates/catalog.js';"],
    ['src/core/call/x.ts', "import { MessageSchema } from '../../schemas/message.js';"],
    ['src/core/call/x.ts', "import { writingPhones } from '../../resources/phones.js';"],
    ['src/variant2/x.ts', "import { createMockServer } from '../mock/msw/server.js';"],
    ['src/webhooks/receivers/x.ts', "import { ApiError } from '../../core/errors/classes.js';"],
    ['src/mock/state/x.ts', "import { redactText } from '../../core/errors/redact.js';"],
    ['src/mock/state/x.ts', "import { parseWebhook } from '../../webhooks/events/parse.js';"],
    ['src/openapi/x.ts', "import { MockService } from '../mock/service.js';"],
    ['src/redis/x.ts', "import { Pacing } from '../core/rate-limit/pacing.js';"],
    ['src/redis/x.ts', "import { createWebhookHandler } from '../webhooks/receivers/fetch-handler.js';"],
    ['src/mock/dashboard/page/x.ts', "import { normalizePhone } from '../../../shared/phone.js';"],
    ['src/mock/state/x.ts', "import { badArgument } from '../control/errors.js';"],
    ['src/mock/state/x.ts', "import { MockHttpError } from '../rules/http-error.js';"],
    ['src/mock/state/x.ts', "import type { MockService } from '../service.js';"],
    ['src/mock/rules/x.ts', "import { checkArguments } from '../control/schemas.js';"],
    ['src/mock/rules/x.ts', "import { startMockHttpServer } from '../http/server.js';"],
    ['src/mock/rules/guard/x.ts', "import type { MockService } from '../../service.js';"],
    ['src/mock/routes/x.ts', "import { CONTROL_PREFIX } from '../control/routes.js';"],
    ['src/mock/calls/x.ts', "import { phoneKey } from '../state/store.js';"],
    ['src/mock/wire/x.ts', "import { envelopeOf } from '../rules/envelope.js';"],
    ['src/mock/rules/x.ts', "import { redactText } from '../../core/errors/redact.js';"],
  ])('%s may not: %s', async (file, code) => {
    expect(await findings(file, code)).toEqual(restricted);
  });

  it('lets msw and node built-ins only into the mock rooms that run where they exist', async () => {
    expect(await findings('src/mock/state/x.ts', "import { http } from 'msw/core/http';")).toEqual([
      'no-restricted-imports',
    ]);
    expect(await findings('src/mock/rules/x.ts', "import { createServer } from 'node:http';")).toEqual([
      'no-restricted-imports',
    ]);
    expect(await findings('src/mock/msw/x.ts', "import { http } from 'msw/core/http';")).toEqual([]);
    expect(await findings('src/mock/http/x.ts', "import { createServer } from 'node:http';")).toEqual([]);
  });

  it.each([
    ['src/core/call/x.ts', "import { ERROR_CODES } from '../../contract/error-codes.js';"],
    ['src/core/call/x.ts', "import { ListMetaSchema } from '../../schemas/common.js';"],
    ['src/webhooks/x.ts', "import { InvalidArgumentError } from '../shared/errors.js';"],
    ['src/mock/state/x.ts', "import { signWebhookAsync } from '../../webhooks/signature/sign-async.js';"],
    ['src/redis/x.ts', "import type { RateLimitStore } from '../core/rate-limit/store.js';"],
    ['src/redis/x.ts', "import { dedupeTimes } from '../webhooks/dedupe/store.js';"],
    ['src/variant1/x.ts', "import { HttpClient } from '../core/call/http-client.js';"],
    ['src/mock/dashboard/page/x.ts', "import { printable } from '../../../shared/printable.js';"],
    ['src/mock/rules/x.ts', "import type { MockStore } from '../state/store.js';"],
    ['src/mock/rules/guard/x.ts', "import { MockHttpError } from '../../wire/http-error.js';"],
    ['src/mock/state/x.ts', "import { badArgument } from '../calls/errors.js';"],
    ['src/mock/state/x.ts', "import { BUSINESS_NUMBER } from '../options.js';"],
    ['src/mock/routes/x.ts', "import type { MockContext } from '../context.js';"],
    ['src/mock/calls/x.ts', "import { SCOPES } from '../../contract/scopes.js';"],
  ])('%s may: %s', async (file, code) => {
    expect(await findings(file, code)).toEqual([]);
  });
});
