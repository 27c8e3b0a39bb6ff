import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPackedProject, typeCheckWithoutNode } from '../helpers/packed-project.js';

/**
 * Browser and Workers test suites have no @types/node: the packed package's types for the Web
 * builds of bizmsg/mock must type-check there.
 */

let project: string;

const workerSuite = `
import { MockService, MAGIC_NUMBERS, type MockState } from 'bizmsg/mock';

const mock = new MockService({ variant: 2 });
export const fetchStub = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => mock.handle(new Request(input, init));
export const contacts: MockState['contacts'] = mock.store.contacts;
export const phone: string = MAGIC_NUMBERS.fails;
`;
const nodeSuite = `
import { createMockServer, startMockHttpServer } from 'bizmsg/mock';

const mock = createMockServer({ variant: 2 });
mock.listen();
const server = await startMockHttpServer({ variant: 1 });
export const url: string = server.baseUrl;
await server.close();
mock.close();
`;
const browserSuite = `
import { createMockWorker, type MockState } from 'bizmsg/mock';

const mock = createMockWorker({ variant: 2 });
await mock.start({ quiet: true, serviceWorker: { url: '/mockServiceWorker.js' } });
mock.inject({ route: 'POST /messages/send', status: 502, times: 1 });
await mock.clock.advance(1000);
export const contacts: MockState['contacts'] = mock.store.contacts;
export const key: string = mock.apiKey;
mock.stop();
`;

beforeAll(async () => {
  // zod is the dependency the declarations refer to; msw the peer dependency of the browser build.
  project = await createPackedProject(inject('tarball'), 'bizmsg-mock-web-types-', ['zod', 'msw', '@types'], {
    'worker.ts': workerSuite,
    'node.ts': nodeSuite,
    'browser.ts': browserSuite,
  });
}, 60_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the types of the Web builds of bizmsg/mock without @types/node ("types": [], lib DOM)', () => {
  it.each([
    [
      'a browser suite, bundler resolution with the browser condition',
      'browser.ts',
      { moduleResolution: 'bundler', customConditions: ['browser'] },
    ],
    [
      'a Workers suite, bundler resolution with the Workers conditions',
      'worker.ts',
      { moduleResolution: 'bundler', customConditions: ['workerd', 'worker'] },
    ],
  ])(
    'type-check %s',
    async (name, file, resolution) => {
      expect(await typeCheckWithoutNode(project, name, file, resolution)).toBe('no errors');
    },
    60_000,
  );
});

/**
 * The requirement the README states for Node projects: `createMockServer`'s types name msw's
 * handlers, and msw's own declarations need lib DOM (31 errors without it); `skipLibCheck` is the
 * other way out. Both tsconfigs, exactly as the README gives them.
 */
describe('the types of bizmsg/mock on Node, as the README states them', () => {
  it.each([
    ['lib ES2022 and DOM, types node, skipLibCheck false', { lib: ['ES2022', 'DOM'], skipLibCheck: false }],
    ['lib ES2022 alone, types node, skipLibCheck true', { lib: ['ES2022'], skipLibCheck: true }],
  ])(
    'type-check a Node suite with %s',
    async (name, options) => {
      const nodeNext = { module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'], ...options };
      expect(await typeCheckWithoutNode(project, name, 'node.ts', nodeNext)).toBe('no errors');
    },
    60_000,
  );

  it('fails without DOM and without skipLibCheck, inside msw (so the README is right to ask for one)', async () => {
    const bare = { module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'], lib: ['ES2022'] };
    expect(await typeCheckWithoutNode(project, 'bare', 'node.ts', bare)).toMatch(/node_modules\/msw\/.*error TS/);
  }, 60_000);
});
