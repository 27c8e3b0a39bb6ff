import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPackedProject, typeCheckWithoutNode } from '../helpers/packed-project.js';

/**
 * msw is an optional peer, and so are its types: a project that only steers a bizmsg-mock in
 * another process (`connectMock`) or serves one (`startMockHttpServer`) installs bizmsg without msw,
 * and its strictest type-check (`skipLibCheck: false`, so every declaration file is checked) passes
 * on the packed package. The msw-facing types (`createMockServer().handlers`) are msw's own once
 * msw is installed: test/mock/types-without-node.package.test.ts type-checks those.
 */

let project: string;

const controlSuite = `
import { connectMock, startMockHttpServer, type DeliveryAttempt, type MockControl } from 'bizmsg/mock';

const server = await startMockHttpServer({ variant: 2 });
const control: MockControl = connectMock(server.baseUrl);
await control.receiveMessage({ from: '+4915112345678', body: 'Hi' });
const attempts: DeliveryAttempt[] = await control.emit('message.failed');
export const count: number = attempts.length + (await control.state()).messages.length;
await server.close();
`;

beforeAll(async () => {
  // zod is the dependency the declarations refer to; @types/node the suite's own; no msw.
  project = await createPackedProject(inject('tarball'), 'bizmsg-mock-types-without-msw-', ['zod', '@types'], {
    'control.mts': controlSuite,
    'control.cts': `import mock = require('bizmsg/mock');\nexport const control: mock.MockControl = mock.connectMock('http://127.0.0.1:4010/api/v1');\n`,
  });
}, 60_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the types of bizmsg/mock without msw installed, skipLibCheck false', () => {
  it.each([
    ['NodeNext, imported from ESM', 'control.mts', { module: 'NodeNext', moduleResolution: 'NodeNext' }],
    ['NodeNext, required from CommonJS', 'control.cts', { module: 'NodeNext', moduleResolution: 'NodeNext' }],
    ['bundler resolution', 'control.mts', { module: 'ESNext', moduleResolution: 'bundler' }],
  ])(
    'type-check a connectMock suite, %s',
    async (name, file, resolution) => {
      const options = { ...resolution, types: ['node'], lib: ['ES2022'], skipLibCheck: false };
      expect(await typeCheckWithoutNode(project, name, file, options)).toBe('no errors');
    },
    60_000,
  );
});
