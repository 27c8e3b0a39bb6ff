import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MockHttpServer } from '../../src/mock/index.js';
import { expectedScenario, type Entry } from './expected.js';
import { matrixBinary, runJson, runText, startPackedMock } from './helpers.js';

const EVERY_ENTRY: Entry[] = ['bizmsg', 'bizmsg/webhooks', 'bizmsg/mock', 'bizmsg/redis'];
// msw >= 2.12's CommonJS build require()s an ESM-only dependency (rettime), which Node loads
// only from 20.19 on: before that, `require('bizmsg/mock')` fails inside msw (see the README).
const WITHOUT_MOCK: Entry[] = ['bizmsg', 'bizmsg/webhooks', 'bizmsg/redis'];

// The lowest version `engines` (>=20) admits, the current 20, and the later LTS lines.
const NODES: Array<{ version: string; binary: string; required: Entry[] }> = [
  { version: '20.0.0', binary: matrixBinary('node-20.0/bin/node'), required: WITHOUT_MOCK },
  { version: '20.20.2', binary: matrixBinary('node-20/bin/node'), required: EVERY_ENTRY },
  { version: '22.23.3', binary: matrixBinary('node-22/bin/node'), required: EVERY_ENTRY },
  { version: '24.21.0', binary: matrixBinary('node-24/bin/node'), required: EVERY_ENTRY },
];

let server: MockHttpServer;
beforeAll(async () => {
  server = await startPackedMock();
});
afterAll(() => server.close());
beforeEach(() => server.mock.reset());

describe.each(NODES.map((node) => [node.version, node] as const))(
  'the packed package on Node %s',
  (version, { binary, required }) => {
    it('is that version', async () => {
      expect(await runText(binary, ['--version'])).toBe(`v${version}`);
    });

    it('ESM: imports every entry, calls the mock, verifies webhooks sync and async', async () => {
      const result = await runJson(binary, ['esm.mjs', server.baseUrl, server.apiKey, ...EVERY_ENTRY]);
      expect(result).toEqual(expectedScenario(EVERY_ENTRY, 'node'));
    });

    it(`CommonJS: requires ${required.join(', ')}, calls the mock, verifies webhooks sync and async`, async () => {
      const result = await runJson(binary, ['cjs.cjs', server.baseUrl, server.apiKey, ...required]);
      expect(result).toEqual(expectedScenario(required, 'node'));
    });
  },
);
