import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  target: 'node20',
  treeshake: true,
  sourcemap: false,
  // zod/mini is bundled, tree-shaken: loaded as its ~100 separate modules it adds ~40 ms to
  // `import('bizmsg')`; bundled it adds ~3 ms. ky and p-throttle stay external and are loaded
  // with import() on first use (ESM-only packages, and ky builds a Request at import time).
  noExternal: ['zod'],
  external: ['ky', 'p-throttle', 'msw'],
};

export default defineConfig([
  {
    ...shared,
    entry: {
      index: 'src/index.ts',
      'webhooks/index': 'src/webhooks/index.ts',
      'mock/index': 'src/mock/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    splitting: true,
  },
  {
    ...shared,
    entry: { 'mock/cli': 'src/mock/cli.ts' },
    format: ['esm'],
    dts: false,
    clean: false,
  },
]);
