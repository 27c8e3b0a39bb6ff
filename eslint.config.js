// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'openapi/',
      'coverage/',
      'scratch/',
      'docs/api/',
      '**/*.d.ts',
      // Code that must be flagged: test/lint checks the rules find it.
      'test/lint/fixtures/',
      // Ambient declarations for the docs check's snippets, outside every tsconfig on purpose.
      'scripts/check-docs/snippet-context.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A `default:` is a decision to treat the other members alike, not an oversight.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // Forwarding a caught value or an abort signal's reason as it is, is what callers expect.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // `typeof import('…')` types what a dynamic import() returns; it stays allowed.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Plain JavaScript: scripts, bench servers and the runtime matrix's consumers, run by Node,
    // Bun, Deno, workerd or a browser.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests assert on values typed loosely on purpose (caught errors, parsed JSON, fuzzed input), and
    // their fakes implement async interfaces without awaiting anything.
    files: ['test/**', 'bench/**', 'examples/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/require-await': 'off',
      // Fuzz and fault tests throw and reject with junk on purpose, and read JSON of no set type.
      '@typescript-eslint/only-throw-error': 'off',
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
