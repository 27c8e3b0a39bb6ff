import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const root = new URL('..', import.meta.url);
const require = createRequire(import.meta.url);

beforeAll(() => {
  if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
    throw new Error('dist/ is missing: run `npm run build` (npm test does it first).');
  }
});

/** Runs a snippet in a fresh node process from the package root and returns its JSON output. */
function node(args: string[]): unknown {
  return JSON.parse(execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' }));
}

describe('the built package', () => {
  it('is side-effect free, Node >= 20, with types for every subpath and condition', () => {
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.engines).toEqual({ node: '>=20' });
    type Entry = { types: string; default: string };
    /** The { types, default } leaves of an exports target, whatever conditions it nests. */
    const leaves = (target: Record<string, unknown>): Entry[] =>
      'types' in target
        ? [target as Entry]
        : Object.values(target).flatMap((inner) => leaves(inner as Record<string, unknown>));
    for (const [subpath, target] of Object.entries<Record<string, unknown> | string>(pkg.exports)) {
      if (subpath === './package.json' || subpath.startsWith('./openapi/')) continue;
      expect(typeof target).toBe('object');
      for (const entry of leaves(target as Record<string, unknown>)) {
        expect(existsSync(new URL(`../${entry.types}`, import.meta.url)), entry.types).toBe(true);
        expect(existsSync(new URL(`../${entry.default}`, import.meta.url)), entry.default).toBe(true);
      }
    }
  });

  it('chooses the build of bizmsg/webhooks by condition: node:crypto for node, Web Crypto for workers, browsers and the rest', () => {
    const build = (target: { import: { default: string }; require: { default: string } }) => [
      target.import.default,
      target.require.default,
    ];
    const { node, workerd, worker, browser, default: fallback } = pkg.exports['./webhooks'];
    expect(Object.keys(pkg.exports['./webhooks'])).toEqual(['workerd', 'worker', 'browser', 'node', 'default']);
    expect(build(node)).toEqual(['./dist/webhooks/index.js', './dist/webhooks/index.cjs']);
    for (const web of [workerd, worker, browser, fallback])
      expect(build(web)).toEqual(['./dist/webhooks/web.js', './dist/webhooks/web.cjs']);
  });

  it('chooses the build of bizmsg by condition: the Web build (no OpenTelemetry lookup) for workers and browsers, the full one for the rest', () => {
    const build = (target: { import: { default: string }; require: { default: string } }) => [
      target.import.default,
      target.require.default,
    ];
    const { node, workerd, worker, browser, default: fallback } = pkg.exports['.'];
    expect(Object.keys(pkg.exports['.'])).toEqual(['workerd', 'worker', 'browser', 'node', 'default']);
    for (const full of [node, fallback]) expect(build(full)).toEqual(['./dist/index.js', './dist/index.cjs']);
    for (const web of [workerd, worker, browser]) expect(build(web)).toEqual(['./dist/web.js', './dist/web.cjs']);
    // One declaration for both: the builds differ at run time only.
    for (const target of [node, workerd, worker, browser, fallback])
      expect([target.import.types, target.require.types]).toEqual(['./dist/index.d.ts', './dist/index.d.cts']);
    expect(existsSync(new URL('../dist/web.d.ts', import.meta.url))).toBe(false);
  });

  it('looks for @opentelemetry/api in the full build only: a Worker or a page is one bundle, where that import cannot resolve', () => {
    for (const format of ['js', 'cjs']) {
      expect(codeLoadedWith(`index.${format}`), format).toMatch(/"@opentelemetry\/api"/);
      expect(codeLoadedWith(`web.${format}`), format).not.toMatch(/opentelemetry|bizmsg\.retry/);
    }
  });

  it('maps every subpath to existing types for moduleResolution node10 (typesVersions)', () => {
    // JSON subpaths need no types: the files sit where node10 looks for them (openapi/*.json).
    const subpaths = Object.keys(pkg.exports)
      .filter((key) => key !== '.' && !key.endsWith('.json'))
      .map((key) => key.slice(2));
    const mapped: Record<string, string[]> = pkg.typesVersions['*'];
    expect(Object.keys(mapped).sort()).toEqual(subpaths.sort());
    for (const [subpath, [types]] of Object.entries(mapped)) {
      expect(existsSync(new URL(`../${types}`, import.meta.url)), `${subpath} -> ${types}`).toBe(true);
    }
  });

  it('loads from ESM and CJS with the same exports', () => {
    const esm = node([
      '--input-type=module',
      '-e',
      "import * as m from 'bizmsg'; console.log(JSON.stringify(Object.keys(m).sort()))",
    ]);
    const cjs = node(['-e', "console.log(JSON.stringify(Object.keys(require('bizmsg')).sort()))"]);
    expect(cjs).toEqual(esm);
    expect(esm).toContain('Variant2Client');
  });

  it('recognises errors across the ESM and CJS copies, and makes requests from both', () => {
    const script = `
      import * as esm from 'bizmsg';
      import { createRequire } from 'node:module';
      const cjs = createRequire(import.meta.url)('bizmsg');
      const fetch = async () => Response.json({ error: { code: 'KEY_REVOKED', message: 'revoked', details: {} } }, { status: 401 });
      const fromCjs = await new cjs.Variant2Client({ apiKey: 'k', baseUrl: 'https://x.test/api/v1', fetch }).account.me().catch((e) => e);
      const fromEsm = await new esm.Variant1Client({ apiKey: 'k', baseUrl: 'https://x.test/api/v1', fetch }).account.me().catch((e) => e);
      console.log(JSON.stringify([
        esm.Variant2Client === cjs.Variant2Client,
        fromCjs instanceof esm.KeyRevokedError, esm.ApiError.is(fromCjs),
        fromEsm instanceof cjs.KeyRevokedError, fromEsm instanceof cjs.BizMsgError,
        fromCjs instanceof esm.TimeoutError,
      ]));`;
    expect(node(['--input-type=module', '-e', script])).toEqual([false, true, true, true, true, false]);
  });

  it('serves bizmsg/webhooks and bizmsg/mock from ESM and CJS', () => {
    const script = `
      const { createRequire } = await import('node:module');
      const cjs = createRequire(import.meta.url);
      const esmHooks = await import('bizmsg/webhooks');
      const cjsHooks = cjs('bizmsg/webhooks');
      const signature = esmHooks.signWebhook('{}', 's');
      const esmMock = await import('bizmsg/mock');
      const cjsMock = cjs('bizmsg/mock');
      const mock = new cjsMock.MockService({ variant: 1 });
      const answer = await mock.handle(new Request(mock.baseUrl + '/account/me', { headers: { 'x-api-key': mock.apiKey } }));
      mock.pause();
      const tracker = cjsHooks.createStatusTracker();
      await tracker.apply({ event: 'message.failed', timestamp: '2026-11-22T10:00:00Z', data: { message_id: 'm1' } });
      const failed = await tracker.waitFor('m1', 'read').catch((error) => error);
      console.log(JSON.stringify([
        cjsHooks.verifyWebhook('{}', signature, 's'), await esmHooks.verifyWebhookAsync('{}', signature, 's'),
        typeof esmMock.createMockServer, answer.status,
        failed instanceof esmHooks.MessageFailedError, failed.record.status,
      ]));`;
    expect(node(['--input-type=module', '-e', script])).toEqual([true, true, 'function', 200, true, 'failed']);
  });

  it('ships the OpenAPI documents as bizmsg/openapi/v1.json, v2.json and control.json, from ESM and CJS', () => {
    const script = `
      import { createRequire } from 'node:module';
      const v1 = (await import('bizmsg/openapi/v1.json', { with: { type: 'json' } })).default;
      const v2 = createRequire(import.meta.url)('bizmsg/openapi/v2.json');
      const control = createRequire(import.meta.url)('bizmsg/openapi/control.json');
      console.log(JSON.stringify([v1.openapi, v1.info.title, v2.info.title, Object.keys(v2.webhooks).length, control.info.title]));`;
    expect(node(['--input-type=module', '-e', script])).toEqual([
      '3.1.0',
      'Business Messaging Service API (Variant 1)',
      'Business Messaging Service API (Variant 2)',
      10,
      'bizmsg mock control API',
    ]);
  });

  it('resolves the package through its exports map only', () => {
    expect(require.resolve('bizmsg')).toMatch(/dist\/index\.cjs$/);
    expect(() => require.resolve('bizmsg/dist/index.js')).toThrow();
  });

  it('serves bizmsg/redis from ESM and CJS, the same functions for ioredis and node-redis', () => {
    const script = `
      const { createRequire } = await import('node:module');
      const esm = await import('bizmsg/redis');
      const cjs = createRequire(import.meta.url)('bizmsg/redis');
      const store = esm.redisRateLimitStore({ sendCommand: async () => 0 });
      const status = cjs.redisStatusStore({ call: async () => 'OK', duplicate: () => undefined });
      console.log(JSON.stringify([Object.keys(esm).sort(), Object.keys(cjs).sort(), typeof store.acquire, typeof cjs.redisDedupeStore({ call: async () => 'OK' }).claim, typeof status.merge]));`;
    expect(node(['--input-type=module', '-e', script])).toEqual([
      ['BizMsgError', 'InvalidArgumentError', 'redisDedupeStore', 'redisRateLimitStore', 'redisStatusStore'],
      ['BizMsgError', 'InvalidArgumentError', 'redisDedupeStore', 'redisRateLimitStore', 'redisStatusStore'],
      'function',
      'function',
      'function',
    ]);
  });

  it('serves bizmsg/bulk from ESM and CJS; bullmq, classic-level, ioredis, csv-parse and Node built-ins load only when used', () => {
    const script = `
      const { createRequire } = await import('node:module');
      const esm = await import('bizmsg/bulk');
      const cjs = createRequire(import.meta.url)('bizmsg/bulk');
      console.log(JSON.stringify([Object.keys(esm).sort(), Object.keys(cjs).sort(), typeof esm.memoryJournal().open]));`;
    const names = [
      'BizMsgError',
      'BulkJournalBusyError',
      'BulkJournalDamagedError',
      'BulkJournalMismatchError',
      'CsvReadError',
      'InvalidArgumentError',
      'bulkOutcomes',
      'bulkReport',
      'createBulkWorker',
      'enqueueBulk',
      'fileJournal',
      'memoryJournal',
      'readCsv',
      'sendBulk',
      'toCsv',
    ];
    expect(node(['--input-type=module', '-e', script])).toEqual([names, names, 'function']);
    for (const format of ['js', 'cjs']) {
      expect(codeLoadedWith(`bulk/index.${format}`)).not.toMatch(
        /from ["'](bullmq|classic-level|ioredis|node:[a-z]+)["']|require\(["'](bullmq|classic-level|ioredis|node:[a-z]+)["']\)/,
      );
      // csv-parse is bundled into a chunk of its own that readCsv imports at its first read.
      expect(codeLoadedWith(`bulk/index.${format}`)).not.toMatch(/relax_column_count/);
    }
    expect(pkg.bin.bizmsg).toBe('./dist/bulk/cli.js');
    // The bin runs as built: csv-parse and cli-progress (CommonJS, bundled into it) load in its ESM.
    const usage = execFileSync(process.execPath, ['dist/bulk/cli.js', 'help'], { cwd: root, encoding: 'utf8' });
    expect(usage).toMatch(/^Usage: bizmsg bulk --csv FILE --template NAME --language L/);
    for (const peer of ['bullmq', 'classic-level']) expect(pkg.peerDependenciesMeta[peer]).toEqual({ optional: true });
  });

  it('types bizmsg/webhooks by one declaration under every condition and moduleResolution (its Web build differs at run time only)', () => {
    const conditions = pkg.exports['./webhooks'] as Record<string, Record<'import' | 'require', { types: string }>>;
    expect(Object.keys(conditions)).toEqual(['workerd', 'worker', 'browser', 'node', 'default']);
    for (const [condition, formats] of Object.entries(conditions)) {
      expect([condition, formats.import.types, formats.require.types]).toEqual([
        condition,
        './dist/webhooks/index.d.ts',
        './dist/webhooks/index.d.cts',
      ]);
    }
    expect(existsSync(new URL('../dist/webhooks/web.d.ts', import.meta.url))).toBe(false);
  });

  it('loads nothing of Redis from bizmsg or either build of bizmsg/webhooks', () => {
    for (const format of ['js', 'cjs']) {
      for (const entry of [`index.${format}`, `web.${format}`, `webhooks/index.${format}`, `webhooks/web.${format}`]) {
        const files = importGraph(new URL(`../dist/${entry}`, import.meta.url));
        expect(
          files.some((file) => file.includes('/dist/redis/')),
          entry,
        ).toBe(false);
        const code = files.map((file) => readFileSync(file, 'utf8')).join('\n');
        expect(code, entry).not.toMatch(
          /from ["'](ioredis|redis)["']|require\(["'](ioredis|redis)["']\)|EVALSHA|SET NX/,
        );
      }
    }
  });
});

describe('what each entry loads with it', () => {
  const builds = ['index.js', 'index.cjs', 'web.js', 'web.cjs'];

  it("keeps ky out of import('bizmsg'): a chunk of its own, loaded at the first request", () => {
    for (const build of builds) {
      expect(codeLoadedWith(build), build).not.toMatch(/duplexAccessed|class HTTPError/);
    }
  });

  it("loads neither Node's fetch (undici) nor ky with bizmsg, from ESM or CommonJS, and both at the first request", () => {
    const script = (load: string) => `
      const server = require('node:http').createServer((_, res) => res.end('{"data":{"id":1,"phone":"+4915112345678"}}'));
      server.listen(0, '127.0.0.1', async () => {
        const { Variant2Client } = await ${load};
        const undici = () => process.moduleLoadList.some((name) => name.includes('undici'));
        const before = undici();
        const client = new Variant2Client({ apiKey: 'k', baseUrl: 'http://127.0.0.1:' + server.address().port + '/api/v1' });
        await client.contacts.get(1);
        console.log(JSON.stringify([before, undici()]));
        server.close();
      });`;
    expect(node(['-e', script("import('bizmsg')")])).toEqual([false, true]);
    expect(node(['-e', script("Promise.resolve(require('bizmsg'))")])).toEqual([false, true]);
  });

  it("loads nothing of bizmsg/mock with the clients, and the mock's dashboard only when it is asked for", () => {
    for (const build of builds) {
      expect(codeLoadedWith(build), build).not.toMatch(/^\/\/ src\/mock\//m);
    }
    for (const build of ['mock/index.js', 'mock/index.cjs', 'mock/web.js', 'mock/browser.js']) {
      expect(codeLoadedWith(build), build).not.toMatch(/^\/\/ src\/mock\/dashboard\//m);
    }
  });
});

/** Every file of dist/ that `entry` may load, itself included, following relative imports and requires. */
function importGraph(entry: URL): string[] {
  return graph(entry, /(?:from\s*|import\s*\(?\s*|require\()\s*["'](\.{1,2}\/[^"']+)["']/g);
}

/** The code of every file of dist/ that `build` loads as it is imported (not its import() chunks). */
function codeLoadedWith(build: string): string {
  const entry = new URL(`../dist/${build}`, import.meta.url);
  const files = graph(entry, /(?:from\s*|^import\s*|require\()\s*["'](\.{1,2}\/[^"']+)["']/gm);
  return files.map((file) => readFileSync(file, 'utf8')).join('\n');
}

function graph(entry: URL, imports: RegExp): string[] {
  const seen = new Set<string>();
  const visit = (url: URL) => {
    if (seen.has(url.pathname)) return;
    seen.add(url.pathname);
    for (const [, specifier] of readFileSync(url, 'utf8').matchAll(imports)) visit(new URL(specifier!, url));
  };
  visit(entry);
  return [...seen];
}
