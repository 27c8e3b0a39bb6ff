import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MockHttpServer } from '../../src/mock/index.js';
import { expectedScenario, type Entry } from './expected.js';
import { runJson, runText, startPackedMock } from './helpers.js';

const bun = new URL('../../node_modules/.bin/bun', import.meta.url).pathname;
const ENTRIES: Entry[] = ['bizmsg', 'bizmsg/webhooks', 'bizmsg/mock', 'bizmsg/redis'];

let server: MockHttpServer;
beforeAll(async () => {
  server = await startPackedMock();
});
afterAll(() => server.close());
beforeEach(() => server.mock.reset());

describe('the packed package on Bun', () => {
  it('is the pinned version', async () => {
    expect(await runText(bun, ['--version'])).toBe('1.4.5');
  });

  it('ESM: imports every entry, calls the mock, verifies webhooks sync and async', async () => {
    const result = await runJson(bun, ['esm.mjs', server.baseUrl, server.apiKey, ...ENTRIES]);
    expect(result).toEqual(expectedScenario(ENTRIES, 'node'));
  });

  it('CommonJS: requires every entry, calls the mock, verifies webhooks sync and async', async () => {
    const result = await runJson(bun, ['cjs.cjs', server.baseUrl, server.apiKey, ...ENTRIES]);
    expect(result).toEqual(expectedScenario(ENTRIES, 'node'));
  });
});
