import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MockHttpServer } from '../../src/mock/index.js';
import { expectedScenario, type Entry } from './expected.js';
import { runJson, runText, startPackedMock } from './helpers.js';

const deno = new URL('../../node_modules/.bin/deno', import.meta.url).pathname;
const env = { DENO_NO_UPDATE_CHECK: '1' };
const ENTRIES: Entry[] = ['bizmsg', 'bizmsg/webhooks', 'bizmsg/redis', 'bizmsg/mock'];

let server: MockHttpServer;
beforeAll(async () => {
  server = await startPackedMock();
});
afterAll(() => server.close());
beforeEach(() => server.mock.reset());

describe('the packed package on Deno', () => {
  it('is the pinned version', async () => {
    expect(await runText(deno, ['--version'])).toMatch(/^deno 2\.9\.5 /);
  });

  it('ESM: imports the entries, calls the mock, verifies webhooks sync and async', async () => {
    const result = await runJson(
      deno,
      [
        'run',
        '--allow-net=127.0.0.1',
        '--allow-read',
        '--allow-env',
        'esm.mjs',
        server.baseUrl,
        server.apiKey,
        ...ENTRIES,
      ],
      env,
    );
    expect(result).toEqual(expectedScenario(ENTRIES, 'node'));
  });

  it('CommonJS: requires the entries, calls the mock, verifies webhooks sync and async', async () => {
    const result = await runJson(
      deno,
      [
        'run',
        '--allow-net=127.0.0.1',
        '--allow-read',
        '--allow-env',
        'cjs.cjs',
        server.baseUrl,
        server.apiKey,
        ...ENTRIES,
      ],
      env,
    );
    expect(result).toEqual(expectedScenario(ENTRIES, 'node'));
  });
});
