import { join } from 'node:path';
import { defineConfig, type Options } from 'tsup';

/**
 * CommonJS has no top-level await: its build of bizmsg/mock loads the optional peer msw with
 * require (src/mock/msw/node-peer.cjs.ts) where the ESM build awaits import() (node-peer.ts).
 */
const mswPeerForCommonJs: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'msw-peer-for-commonjs',
  setup(build) {
    // tsup builds CommonJS as ESM for its tree-shaking, then converts it: TSUP_FORMAT tells them apart.
    if (build.initialOptions.define?.TSUP_FORMAT !== '"cjs"') return;
    build.onResolve({ filter: /^\.\/node-peer\.js$/ }, ({ resolveDir }) => ({
      path: join(resolveDir, 'node-peer.cjs.ts'),
    }));
  },
};

const shared: Options = {
  target: 'node20',
  treeshake: true,
  sourcemap: false,
  // zod/mini is bundled, tree-shaken: loaded as its ~100 separate modules it adds ~40 ms to
  // `import('bizmsg')`; bundled it adds ~3 ms. ky is bundled too: it is ESM-only, and the
  // CommonJS build must run on every Node 20. p-throttle (ESM-only) stays external and is
  // loaded with import() when the rateLimit option asks for it.
  noExternal: ['zod', 'ky'],
  external: ['p-throttle', 'msw', 'ioredis', 'redis'],
  // Keep `node:` on built-in imports: Deno and Workers' nodejs_compat resolve built-ins by it.
  removeNodeProtocol: false,
  esbuildPlugins: [mswPeerForCommonJs],
};

export default defineConfig([
  {
    ...shared,
    entry: {
      index: 'src/index.ts',
      // Two builds of bizmsg/webhooks, picked by export conditions (package.json): `index` imports
      // node:crypto for the synchronous functions; `web` uses Web Crypto only.
      'webhooks/index': 'src/webhooks/index.ts',
      'webhooks/web': 'src/webhooks/web.ts',
      // Three builds of bizmsg/mock, the same way: `index` adds msw/node and node:http; `web` runs
      // on Web APIs alone, without msw (Workers); `browser` adds msw's Service Worker.
      'mock/index': 'src/mock/index.ts',
      'mock/web': 'src/mock/web.ts',
      'mock/browser': 'src/mock/browser.ts',
      'redis/index': 'src/redis/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    splitting: true,
  },
  {
    ...shared,
    entry: { 'mock/cli': 'src/mock/cli/main.ts' },
    format: ['esm'],
    dts: false,
    clean: false,
  },
]);
