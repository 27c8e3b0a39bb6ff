import { defineConfig } from 'vitest/config';

// The runtime matrix (`npm run test:runtimes`): the packed package on every runtime it claims.
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/runtimes/**/*.test.ts'],
    globalSetup: ['test/runtimes/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    typecheck: { enabled: false },
  },
});
