import { configDefaults, defineConfig } from 'vitest/config';

const source = (path: string) => new URL(`./src/${path}`, import.meta.url).pathname;

export default defineConfig({
  // As tsconfig's paths: examples import 'bizmsg' as users do, and run against the sources.
  resolve: {
    alias: [
      { find: /^bizmsg$/, replacement: source('index.ts') },
      { find: /^bizmsg\/webhooks$/, replacement: source('webhooks/index.ts') },
      { find: /^bizmsg\/mock$/, replacement: source('mock/index.ts') },
      { find: /^bizmsg\/bulk$/, replacement: source('bulk/index.ts') },
    ],
  },
  test: {
    // examples/vitest is an example of a user's suite against the mock; it runs with ours.
    include: ['test/**/*.test.ts', 'examples/vitest/**/*.test.ts', 'examples/emulator/**/*.test.ts'],
    // The runtime matrix runs apart: `npm run test:runtimes` (test/runtimes/vitest.config.ts).
    exclude: [...configDefaults.exclude, 'test/runtimes/**'],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    testTimeout: 20_000,
    restoreMocks: true,
  },
});
