// Clients generated from the shipped documents by two other stacks' generators (openapi-typescript
// with openapi-fetch, @hey-api/openapi-ts): programs calling every operation of each variant are
// compiled against them under `tsc --strict` and run against the mock over HTTP.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockHttpServer } from '../../src/mock/index.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = (path: string) => join(root, 'node_modules', path);
const QUIET = { ...process.env, NO_COLOR: '1' };
const PROGRAMS = ['openapi-fetch-v1', 'openapi-fetch-v2', 'hey-api-v1', 'hey-api-v2'] as const;

let dir: string;

/** Generates the four clients (each generator once per document, the two generators side by side), then compiles the programs. */
async function generateAndCompile(): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'bizmsg-generated-'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  cpSync(join(root, 'test/openapi/generated-clients'), dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  const documents = [1, 2].map((variant) => ({ variant, input: join(root, `openapi/v${variant}.json`) }));
  writeFileSync(
    join(dir, 'openapi-ts.config.mjs'),
    `export default ${JSON.stringify(
      documents.map(({ variant, input }) => ({
        input,
        output: `generated/hey-api/v${variant}`,
        logs: { level: 'silent', file: false },
      })),
    )};`,
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: [],
        outDir: 'out',
        rootDir: '.',
        noEmitOnError: true,
        // The libraries' declarations (DOM, openapi-fetch) are not ours to check; the generated code is .ts, so it is checked.
        skipLibCheck: true,
      },
      include: ['*.ts', 'generated/**/*.ts'],
    }),
  );
  await Promise.all([
    run(process.execPath, [bin('@hey-api/openapi-ts/bin/run.js')], { cwd: dir, env: QUIET }),
    ...documents.map(({ variant, input }) =>
      run(
        process.execPath,
        [bin('openapi-typescript/bin/cli.js'), input, '-o', join(dir, `generated/openapi-typescript/v${variant}.ts`)],
        { cwd: dir, env: QUIET },
      ),
    ),
  ]);
  await run(process.execPath, [bin('typescript/bin/tsc'), '-p', dir], { cwd: dir }).catch(
    (error: { stdout: string }) => {
      throw new Error(`tsc --strict failed on the generated clients:\n${error.stdout}`);
    },
  );
}

/** Runs one compiled program against a fresh mock of its variant; what it read. */
async function runProgram(program: (typeof PROGRAMS)[number]): Promise<unknown> {
  const variant = program.endsWith('v1') ? 1 : 2;
  const [readOnlyKey, tightKey] = ['sk_test_generated_read_only', 'sk_test_generated_tight'];
  const server = await startMockHttpServer({
    variant,
    keys: [
      { key: readOnlyKey, scopes: ['account:read'] },
      { key: tightKey, plan: 'tight' },
    ],
    plans: { tight: { rateLimit: 1000, maxContacts: 0, maxMessages: 0, maxWebhookEndpoints: 0 } },
  });
  try {
    const config = { baseUrl: server.baseUrl, apiKey: server.apiKey, readOnlyKey, tightKey };
    const { stdout } = await run(process.execPath, [join(dir, 'out', `${program}.js`)], {
      env: { ...process.env, BIZMSG_MOCK: JSON.stringify(config) },
    });
    return JSON.parse(stdout);
  } finally {
    await server.close();
  }
}

const sharedErrors = (variant: 1 | 2) => ({
  forbidden: [403, 'INSUFFICIENT_PERMISSIONS', 'contacts:write'],
  plan: [403, 1 - 1],
  missing: [404, 'RESOURCE_NOT_FOUND', null],
  large: [413, 'PAYLOAD_TOO_LARGE', ['must be at most 1048576 bytes']],
  unknownKey: [401, 'AUTHENTICATION_ERROR', 'Invalid API key.'],
  ...(variant === 1
    ? {
        success: [false, false],
        invalid: [400, 'VALIDATION_ERROR', ['must not be empty']],
        phone: [400, 'INVALID_PHONE', ['is not a valid phone number']],
      }
    : {
        invalid: [422, 'VALIDATION_ERROR', ['is not a messaging account of this account']],
        phone: [400, 'INVALID_PHONE', ['is not a valid phone number']],
      }),
});

/** What every program of a variant reads, whichever generator made its client. */
const EXPECTED = {
  1: {
    contact: [1, { a: 1 }, 'Ada', 'Ada L.', [1], 1],
    messages: ['msg_1', 'sent', 'msg_2', 'msg_1', 'sent'],
    automation: ['welcome-flow', 'started'],
    account: ['pro', 7],
    errors: sharedErrors(1),
  },
  2: {
    contact: [1, 'Ada', 'Ada L.', [1], 1, true],
    messages: ['msg_1', 'sent', 'msg_2', 'outbound', 1],
    conversation: [
      1,
      'open',
      [
        ['msg_1', 'sent'],
        ['msg_2', 'sent'],
      ],
    ],
    campaign: [1, 'scheduled', 0, 1],
    webhook: [1, 'active', [['message.delivered']]],
    account: ['enterprise', 7],
    errors: sharedErrors(2),
  },
};

describe('clients generated from the documents', () => {
  beforeAll(generateAndCompile, 120_000);
  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it.each(PROGRAMS)(
    '%s: compiles under tsc --strict and reads every operation of its variant from the mock',
    async (program) => {
      expect(await runProgram(program)).toEqual(EXPECTED[program.endsWith('v1') ? 1 : 2]);
    },
    30_000,
  );
});
