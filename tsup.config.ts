import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

/**
 * Swaps files for siblings: an import of `./name.js` whose folder holds `name` + `suffix` gets that
 * file instead, in the builds `applies` picks (all by default).
 */
function siblingFiles(suffix: string, applies: (options: BuildOptions) => boolean = () => true): Plugin {
  return {
    name: `sibling-files${suffix}`,
    setup(build) {
      if (!applies(build.initialOptions)) return;
      build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, ({ path, resolveDir }) => {
        const sibling = join(resolveDir, path.replace(/\.js$/, suffix));
        return existsSync(sibling) ? { path: sibling } : undefined;
      });
    },
  };
}

/**
 * Every CommonJS build takes `.cjs.ts` siblings (mock/msw/node-peer.cjs.ts: CommonJS has no
 * top-level await, so it loads the optional peer msw with require where the ESM build awaits
 * import()). tsup builds CommonJS as ESM for its tree-shaking, then converts it: TSUP_FORMAT tells
 * them apart.
 */
const cjsFiles = siblingFiles('.cjs.ts', (options) => options.define?.TSUP_FORMAT === '"cjs"');

/**
 * The Web build of the clients takes `.web.ts` siblings (core/transport/tracing.web.ts: a Worker or
 * a page is one bundle, where the run-time lookup of `@opentelemetry/api` can never succeed).
 */
const webFiles = siblingFiles('.web.ts');

const shared: Options = {
  target: 'node20',
  treeshake: true,
  sourcemap: false,
  // zod/mini is bundled, tree-shaken: loaded as its ~100 separate modules it adds ~40 ms to
  // `import('bizmsg')`; bundled it adds ~3 ms. ky is bundled too: it is ESM-only, and the
  // CommonJS build must run on every Node 20. p-throttle (ESM-only) stays external and is
  // loaded with import() when the rateLimit option asks for it. p-limit (the mock's bound on
  // deliveries in flight, ESM-only) is a devDependency, so it is bundled like them.
  noExternal: ['zod', 'ky'],
  external: ['p-throttle', 'msw', 'ioredis', 'redis', 'bullmq', 'classic-level'],
  // Keep `node:` on built-in imports: Deno and Workers' nodejs_compat resolve built-ins by it.
  removeNodeProtocol: false,
  esbuildPlugins: [cjsFiles],
};

/** What the bins print for `--version` (src/cli-version.d.ts): the package's version, fixed at build. */
const version = {
  __BIZMSG_VERSION__: JSON.stringify((JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version),
};

/** The entries users import: ESM and CommonJS, each split into what it loads at once and later. */
const entries: Options = { ...shared, format: ['esm', 'cjs'], splitting: true };

/** The clients (bizmsg). */
const clients = { index: 'src/index.ts' };

/**
 * Two builds of bizmsg/webhooks, picked by export conditions (package.json): `index` imports
 * node:crypto for the synchronous functions; `web` uses Web Crypto only.
 */
const receivers = { 'webhooks/index': 'src/webhooks/index.ts', 'webhooks/web': 'src/webhooks/web.ts' };

const others = {
  // Three builds of bizmsg/mock, the same way: `index` adds msw/node and node:http; `web` runs
  // on Web APIs alone, without msw (Workers); `browser` adds msw's Service Worker.
  'mock/index': 'src/mock/index.ts',
  'mock/web': 'src/mock/web.ts',
  'mock/browser': 'src/mock/browser.ts',
  'redis/index': 'src/redis/index.ts',
  // bizmsg/bulk: its optional peers (classic-level, bullmq, ioredis) load only with the functions that use them.
  'bulk/index': 'src/bulk/index.ts',
};

export default defineConfig([
  {
    ...entries,
    // The clients are built alone: sharing chunks with the other entries put zod's JSON Schema
    // converter and the mock's schemas into chunks that `import('bizmsg')` loaded (and bundlers
    // kept), 40 KB the clients never run. Their own lazy chunk is ky (core/transport/ky.ts).
    entry: clients,
    // One declaration pass for every entry: the entries' declarations share one copy of each type
    // (one BizMsgError and its brand, whichever entry a user imports it from), and the build
    // type-checks the program once rather than once per build.
    // bizmsg/webhooks' Web build has no declarations of its own: every condition is typed by the
    // Node build's (the builds differ at run time only), so a hover reads the same under any
    // moduleResolution.
    // `@internal` declarations (constructors users never call, and the request plumbing only they
    // name) are left out, so that no internal or zod type reaches a user's compiler or hover.
    dts: {
      entry: { ...clients, 'webhooks/index': receivers['webhooks/index'], ...others },
      compilerOptions: { stripInternal: true },
    },
    clean: true,
  },
  {
    ...entries,
    // The clients' Web build, picked by the workerd, worker and browser conditions: the same code
    // but for the `.web.ts` siblings (no OpenTelemetry lookup), typed by the Node build's declarations.
    entry: { web: clients.index },
    esbuildPlugins: [...(shared.esbuildPlugins ?? []), webFiles],
    dts: false,
    clean: false,
  },
  {
    ...entries,
    // Built apart from the mock's entries for the reason the clients are: the chunks they would
    // share carry the mock's schemas and zod's JSON Schema converter, which a receiver never runs (figure 1).
    entry: receivers,
    dts: false,
    clean: false,
  },
  {
    ...entries,
    entry: others,
    // readCsv's parser: bundled into the chunk readCsv loads at its first read, so that it is no
    // dependency of the package and importing bizmsg/bulk loads none of it.
    noExternal: [...(shared.noExternal ?? []), 'csv-parse'],
    dts: false,
    clean: false,
  },
  {
    ...shared,
    entry: { 'mock/cli': 'src/mock/cli/main.ts' },
    format: ['esm'],
    define: version,
    dts: false,
    clean: false,
  },
  {
    ...shared,
    // The `bizmsg` command: its CSV parser and progress bar are bundled into it, so that they are
    // no dependency of the package (only the command runs them).
    entry: { 'bulk/cli': 'src/bulk/cli/main.ts' },
    format: ['esm'],
    define: version,
    noExternal: [...(shared.noExternal ?? []), 'csv-parse', 'cli-progress'],
    // One file, with a `require` for the CommonJS code bundled into it (cli-progress requires readline).
    splitting: false,
    banner: {
      js: "import { createRequire as __bizmsgRequire } from 'node:module'; const require = __bizmsgRequire(import.meta.url);",
    },
    dts: false,
    clean: false,
  },
]);
