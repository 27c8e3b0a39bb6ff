import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, openApiDocument, startMockHttpServer } from '../../src/mock/index.js';

// Where users find the documents: shipped in the package (written by the build), served by the
// mock over msw and over HTTP, printed by the bin. Their content: document.test.ts.

const root = new URL('../..', import.meta.url);

describe('where the documents are', () => {
  const mocks: Array<{ close(): unknown }> = [];
  afterAll(async () => {
    for (const mock of mocks) await mock.close();
  });

  it('ships openapi/v1.json and v2.json, built from the same function', () => {
    for (const variant of [1, 2] as const) {
      const file = new URL(`openapi/v${variant}.json`, root);
      expect(existsSync(file), 'run npm run build').toBe(true);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(openApiDocument(variant));
    }
  });

  it('is served by the mock at GET {baseUrl}/openapi.json without a key, naming the mock as server (msw)', async () => {
    const mock = createMockServer({ variant: 1, baseUrl: 'https://openapi.bizmsg.test/api/v1' });
    mocks.push(mock);
    mock.listen();
    mock.inject({ status: 500, rate: 1 });
    const response = await fetch(`${mock.baseUrl}/openapi.json`);
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/json']);
    expect(await response.json()).toEqual({ ...openApiDocument(1), servers: [{ url: mock.baseUrl }] });
    expect(mock.openApiDocument()).toEqual({ ...openApiDocument(1), servers: [{ url: mock.baseUrl }] });
    expect((await fetch(`${mock.baseUrl}/openapi.json`, { method: 'POST' })).status).toBe(500);
  });

  it('is served over HTTP and printed by bizmsg-mock --openapi', async () => {
    const server = await startMockHttpServer({ variant: 2 });
    mocks.push(server);
    const response = await fetch(`${server.baseUrl}/openapi.json`);
    expect(await response.json()).toEqual({ ...openApiDocument(2), servers: [{ url: server.baseUrl }] });
    const printed = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'src/mock/cli/main.ts', '--openapi', '--variant', '1', '--port', '4999'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(JSON.parse(printed)).toEqual({ ...openApiDocument(1), servers: [{ url: 'http://127.0.0.1:4999/api/v1' }] });
  });
});
