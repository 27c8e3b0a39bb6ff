import { execFileSync } from 'node:child_process';
import { get } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockHttpServer, type MockHttpServer } from '../../../src/mock/index.js';

/** The body's bytes as they come over the wire (node:http, unlike fetch, does not unzip them). */
function rawBody(url: string, headers: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks)));
    }).on('error', reject),
  );
}

const dist = new URL('../../../dist/dashboard/', import.meta.url);
let server: MockHttpServer;
beforeAll(async () => {
  server = await startMockHttpServer();
});
afterAll(() => server.close());

/** The built page's files: index.html and the two hashed assets it names. */
function built() {
  const html = readFileSync(new URL('index.html', dist), 'utf8');
  const script = /<script type="module" src="\/_dashboard\/([^"]+)"/.exec(html)![1]!;
  const style = /<link rel="stylesheet" href="\/_dashboard\/([^"]+)"/.exec(html)![1]!;
  return { html, script, style };
}

describe('the dashboard served by the mock over HTTP', () => {
  it('is built into dist/dashboard/: index.html, one hashed script and one hashed stylesheet, and the licences of what it bundles', () => {
    const { script, style } = built();
    expect(readdirSync(dist).sort()).toEqual(['THIRD-PARTY-LICENSES.txt', 'index.html', script, style].sort());
    expect([script, style]).toEqual([
      expect.stringMatching(/^main-[A-Z0-9]{8}\.js$/),
      expect.stringMatching(/^main-[A-Z0-9]{8}\.css$/),
    ]);
    const licences = readFileSync(new URL('THIRD-PARTY-LICENSES.txt', dist), 'utf8');
    expect(licences.match(/^(eventsource-parser|preact) \d+\.\d+\.\d+$/gm)).toEqual([
      expect.stringMatching(/^eventsource-parser /),
      expect.stringMatching(/^preact /),
    ]);
  });

  it('answers GET / with the page, checked on each load (no-cache, an ETag, 304 when unchanged), under a policy that keeps it to its origin', async () => {
    const page = await fetch(`${server.origin}/`);
    expect(page.status).toBe(200);
    expect(
      Object.fromEntries(
        ['content-type', 'cache-control', 'content-security-policy', 'x-content-type-options', 'referrer-policy'].map(
          (h) => [h, page.headers.get(h)],
        ),
      ),
    ).toEqual({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'content-security-policy':
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    expect(await page.text()).toBe(built().html);
    const etag = page.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    const again = await fetch(`${server.origin}/`, { headers: { 'if-none-match': etag } });
    expect([again.status, await again.text(), again.headers.get('etag')]).toEqual([304, '', etag]);
  });

  it('serves the hashed assets for a year, gzipped when asked, HEAD without a body', async () => {
    const { script, style } = built();
    for (const [name, type] of [
      [script, 'text/javascript; charset=utf-8'],
      [style, 'text/css; charset=utf-8'],
    ] as const) {
      const bytes = readFileSync(new URL(name, dist));
      const plain = await fetch(`${server.origin}/_dashboard/${name}`, { headers: { 'accept-encoding': 'identity' } });
      expect([
        plain.status,
        plain.headers.get('content-type'),
        plain.headers.get('cache-control'),
        plain.headers.get('content-encoding'),
      ]).toEqual([200, type, 'public, max-age=31536000, immutable', null]);
      expect(Buffer.from(await plain.arrayBuffer())).toEqual(bytes);
      const zipped = await rawBody(`${server.origin}/_dashboard/${name}`, { 'accept-encoding': 'gzip' });
      expect(zipped.byteLength).toBeLessThan(bytes.byteLength / 2);
      expect(gunzipSync(zipped)).toEqual(bytes);
      const head = await fetch(`${server.origin}/_dashboard/${name}`, {
        method: 'HEAD',
        headers: { 'accept-encoding': 'identity' },
      });
      expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([
        200,
        String(bytes.byteLength),
        '',
      ]);
    }
  });

  it('answers 404 for a file it does not have, and leaves every other path and method to the service', async () => {
    for (const path of [
      '/_dashboard/nope.js',
      '/_dashboard/index.html',
      '/_dashboard/THIRD-PARTY-LICENSES.txt',
      '/_dashboard/%2e%2e%2fpackage.json',
    ])
      expect([path, (await fetch(`${server.origin}${path}`)).status]).toEqual([path, 404]);
    const post = await fetch(`${server.origin}/`, { method: 'POST' });
    expect([post.status, ((await post.json()) as { error: { code: string } }).error.code]).toEqual([
      404,
      'RESOURCE_NOT_FOUND',
    ]);
    // The page and its assets are never journaled; the POST reached the service and is.
    expect(server.mock.requests().map((r) => `${r.method} ${r.url} ${r.status}`)).toEqual(['POST / 404']);
  });

  it('reads its files on the first request for them, never when bizmsg or bizmsg/mock is imported or a server starts', () => {
    // Every file a fresh process reads, through node:fs, as the clients' entry and bizmsg/mock load,
    // a server listens, and then serves GET /.
    const script = `
      import fs from 'node:fs';
      import { syncBuiltinESMExports } from 'node:module';
      const read = [];
      for (const name of ['readFileSync', 'readdirSync']) {
        const original = fs[name];
        fs[name] = (path, ...rest) => (read.push(String(path)), original(path, ...rest));
      }
      syncBuiltinESMExports();
      await import('bizmsg');
      const clients = [...read];
      const { startMockHttpServer } = await import('bizmsg/mock');
      const server = await startMockHttpServer();
      const before = read.filter((path) => path.includes('dashboard'));
      await (await fetch(server.origin + '/')).text();
      const after = read.filter((path) => path.includes('dashboard')).map((path) => path.replace(/.*\\/dist\\//, 'dist/'));
      await server.close();
      console.log(JSON.stringify({ clients, before, after }));`;
    const root = new URL('../../..', import.meta.url).pathname;
    const { clients, before, after } = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }),
    );
    const { script: js, style } = built();
    expect(clients).toEqual([]);
    expect(before).toEqual([]);
    expect(after.sort()).toEqual(
      ['dist/dashboard', 'dist/dashboard/index.html', `dist/dashboard/${js}`, `dist/dashboard/${style}`].sort(),
    );
  });
});
