// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The rooms of src/ and what each may import (each README.md under src/, and docs/architecture.md): a pattern
 * over the relative import specifier names the rooms a room must not reach.
 */
const ROOMS = [
  ['src/shared/**', '^\\.\\./', 'shared/ imports nothing else of src/'],
  ['src/schemas/**', '^\\.\\./(?!shared/)', 'schemas/ may import only shared/'],
  ['src/contract/**', '^\\.\\./(?!shared/|schemas/)', 'contract/ may import only shared/ and schemas/'],
  ['src/templates/**', '^\\.\\./(?!shared/|schemas/)', 'templates/ may import only shared/ and schemas/'],
  [
    'src/openapi/**',
    '^\\.\\./(?!shared/|schemas/|contract/)',
    'openapi/ may import only shared/, contract/ and schemas/',
  ],
  [
    'src/core/**',
    '^\\.[./]*/(.*/)?((mock|webhooks|redis|openapi|variant1|variant2|resources|runs|contacts-sync|bulk|cli|templates)/|shared/phone\\.js$|schemas/(?!common\\.js$))',
    "core/ knows neither the entries built on it nor the business (phone numbers, templates, the resources' schemas): the clients plug those in (encodeBody, completeMessage)",
  ],
  [
    'src/runs/**',
    '^\\.\\./(?!shared/|core/errors/)',
    'runs/ may import only shared/ and the error classes of core/errors/',
  ],
  [
    'src/{variant1,variant2,resources}/**',
    '^\\.[./]*/(.*/)?(mock|webhooks|redis|openapi|bulk|cli)/',
    'the clients do not load the other entries',
  ],
  [
    'src/webhooks/**',
    '^\\.[./]*/(.*/)?(core|mock|redis|openapi|variant1|variant2|resources|runs|contacts-sync)/',
    'webhooks/ stands on shared/, contract/ and schemas/ only',
  ],
  [
    'src/mock/**',
    '^\\.[./]*/(.*/)?((core|redis|variant1|variant2|resources|runs|contacts-sync|bulk|cli)/|webhooks/(?!signature/))',
    "the mock must not share the clients' machinery (it tests them); of webhooks/ it signs with signature/",
  ],
];

/** The mock's own rule of ROOMS: each of its inner rooms below keeps it, and adds its own. */
const MOCK_ROOM = ROOMS.find(([files]) => files === 'src/mock/**');

/** What the mock's outer rooms and top-level files are, as a relative specifier names them. */
const MOCK_OUTER = '(control|http|msw|cli|dashboard|traffic)/|(service|context|index|web|browser|entry-exports)\\.js$';

/**
 * The mock's inner rooms (each README.md under src/mock/, and docs/architecture.md): dependencies
 * point inward, calls/ and wire/ <- state/ <- rules/ <- routes/ <- service.ts <- the control API
 * and the faces, so no inner room imports an adapter.
 */
const MOCK_ROOMS = [
  [
    'src/mock/{calls,wire}/**',
    '^\\.\\./(?!\\.\\./)',
    "calls/ and wire/ are the mock's innermost rooms: they import no other room of it",
  ],
  [
    'src/mock/state/**',
    `^\\.[./]*/((rules|routes)/|${MOCK_OUTER})`,
    'state/ imports of the mock only calls/, wire/ and options.ts: the rules judge against it, the control API and the faces wrap it',
  ],
  [
    'src/mock/customer/**',
    `^\\.[./]*/((rules|routes)/|${MOCK_OUTER})`,
    'customer/ imports of the mock only calls/ and state/: the service hands a customer what it needs, the control API and the faces wrap it',
  ],
  [
    'src/mock/rules/**',
    `^\\.[./]*/(routes/|${MOCK_OUTER})`,
    'rules/ imports of the mock only state/, calls/, wire/ and options.ts: the control API and the faces wrap it',
  ],
  [
    'src/mock/routes/**',
    `^\\.[./]*/(${MOCK_OUTER.replace('|context', '')})`,
    'routes/ imports of the mock only rules/, state/, calls/, wire/, options.ts and context.ts: the control API and the faces wrap it',
  ],
];

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
      // Programs on clients generated at test time, compiled under tsc --strict by their test.
      'test/openapi/generated-clients/',
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
  ...ROOMS.map(([files, regex, message]) => ({
    files: [files],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex, message }] }] },
  })),
  // A later block's options replace an earlier one's for the same files: each keeps the mock's rule too.
  ...MOCK_ROOMS.map(([files, regex, message]) => ({
    files: [files],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: MOCK_ROOM[1], message: MOCK_ROOM[2] },
            { regex, message },
          ],
        },
      ],
    },
  })),
  {
    // bizmsg/redis implements the interfaces core/ and webhooks/ declare: it may import their types, nothing else.
    files: ['src/redis/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.[./]*/(.*/)?(mock|openapi|variant1|variant2|resources)/',
              message: 'redis/ implements stores only',
            },
            {
              regex: '^\\.[./]*/(.*/)?webhooks/(?!dedupe/store|status/store|status/record)',
              message:
                'redis/ may import of webhooks/ only the store interfaces it implements (dedupe, status) and their records',
            },
            {
              regex: '^\\.[./]*/(.*/)?core/',
              allowTypeImports: true,
              message: 'redis/ may import of core/ only the types of the store interface it implements',
            },
          ],
        },
      ],
    },
  },
  {
    // contacts.sync is given a client's `contacts`: of the clients it runs only the error classes
    // and the body check of core/, and reads the types of the rest.
    files: ['src/contacts-sync/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.[./]*/(.*/)?(mock|webhooks|redis|openapi|bulk|cli|variant1|variant2|resources)/',
              message: "contacts-sync/ is given the clients' contacts: it imports none of their classes",
            },
            {
              regex: '^\\.[./]*/(.*/)?core/(?!errors/|call/request-body\\.js$)',
              allowTypeImports: true,
              message: 'contacts-sync/ may import of core/ only the error classes and the body check, and types',
            },
          ],
        },
      ],
    },
  },
  {
    // bizmsg/bulk drives a client the caller made: of the clients it reads only the error classes
    // (what a failed send says) and the types of the clients and their bodies.
    files: ['src/bulk/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.[./]*/(.*/)?((mock|webhooks|openapi|resources|contract)/|redis/(?!commands\\.js$))',
              message: 'bulk/ stands on shared/, the clients it is given and the Redis commands of redis/commands.ts',
            },
            {
              regex: '^\\.[./]*/(.*/)?(variant1|variant2|schemas|core/(?!errors/))',
              allowTypeImports: true,
              message: 'bulk/ may import of the clients only their types and the error classes of core/errors/',
            },
          ],
        },
      ],
    },
  },
  {
    // The command is a program of its own: it may also use bizmsg/webhooks' public entry (its
    // fileStatusStore, for `bizmsg bulk report --statuses`), not its rooms.
    files: ['src/bulk/cli/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^\\.[./]*/(.*/)?((mock|openapi|resources|contract)/|webhooks/(?!index\\.js$)|redis/(?!commands\\.js$))',
              message: "bulk/cli/ stands on the rest of bulk/, shared/, the clients and bizmsg/webhooks' entry",
            },
            {
              regex: '^\\.[./]*/(.*/)?(variant1|variant2|schemas|core/(?!errors/))',
              allowTypeImports: true,
              message: 'bulk/ may import of the clients only their types and the error classes of core/errors/',
            },
          ],
        },
      ],
    },
  },
  {
    // Node built-ins only in the command, the BullMQ part and the file journal's store (each loaded
    // with import() by the functions that need them): sendBulk runs wherever the clients run.
    files: ['src/bulk/**'],
    ignores: ['src/bulk/cli/**', 'src/bulk/queue/**', 'src/bulk/file/**', 'src/bulk/csv/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: 'node built-ins only in bulk/cli/, bulk/queue/, bulk/file/ and bulk/csv/' },
          ],
        },
      ],
    },
  },
  {
    // msw is an optional peer: only the msw faces load it; node built-ins only where Node runs.
    files: ['src/mock/**'],
    ignores: [
      'src/mock/msw/**',
      'src/mock/http/**',
      'src/mock/cli/**',
      'src/mock/dashboard/*.ts',
      'src/mock/traffic/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(msw|node:)',
              message:
                'msw only in mock/msw/, node built-ins only in mock/http/, mock/cli/, mock/traffic/ and mock/dashboard/*.ts (its server side)',
            },
          ],
        },
      ],
    },
  },
  // The dashboard's page runs in a browser and reaches the mock only over the control API: of src/
  // outside page/ it may import only types (the records it reads) and shared/printable.ts (the one
  // neutraliser, which imports nothing), of packages only the two it bundles.
  ...[
    ['src/mock/dashboard/page/*', '^\\.\\./(?!\\.\\./\\.\\./shared/printable\\.js$)'],
    ['src/mock/dashboard/page/views/**', '^\\.\\./\\.\\./'],
  ].map(([files, outside]) => ({
    files: [files],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: outside,
              allowTypeImports: true,
              message:
                'the page may import only types from outside page/ (and shared/printable.js): it talks to the mock over HTTP',
            },
            {
              regex: '^(?!\\.|preact(/|$)|eventsource-parser$)',
              message: 'the page runs in a browser: of packages only preact and eventsource-parser (bundled)',
            },
          ],
        },
      ],
    },
  })),
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
