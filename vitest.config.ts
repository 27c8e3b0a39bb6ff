import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
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
