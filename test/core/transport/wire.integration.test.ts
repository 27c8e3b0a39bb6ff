import type { ServerResponse } from 'node:http';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { MockAgent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { type ApiError, ConnectionError, ResourceNotFoundError, Variant2Client } from '../../../src/index.js';
import { useTestServer } from '../../helpers/http-server.js';

// What reaches the wire and comes back, through the public API against a real local server: every
// attempt goes through fetch, so answers decode as fetch decodes them, and what is set for fetch
// (a proxy or mock agent) applies.

const server = useTestServer();
const contact = (name: string) => ({ id: 1, phone: '+4915112345678', name });

function encoded(res: ServerResponse, status: number, coding: string, bytes: Buffer) {
  res.writeHead(status, { 'content-encoding': coding, 'content-type': 'application/json' });
  res.end(bytes);
}

function client(maxRetries = 0) {
  return new Variant2Client({ apiKey: 'k', baseUrl: server.baseUrl, maxRetries });
}

describe('answers on the wire', () => {
  it.each([
    ['gzip', 'gzip', gzipSync],
    ['x-gzip', 'x-gzip', gzipSync],
    ['deflate', 'deflate (zlib)', deflateSync],
    ['deflate', 'deflate (raw)', deflateRawSync],
    ['br', 'br', brotliCompressSync],
    ['gzip, br', 'gzip, then br', (text: string) => brotliCompressSync(gzipSync(text))],
  ] as const)('parses a body sent with content-encoding %s: %s', async (coding, _what, compress) => {
    server.handle((_, res) => encoded(res, 200, coding, compress(JSON.stringify({ data: contact(coding) }))));
    expect(await client().contacts.get(1)).toEqual(contact(coding));
    expect(server.received[0]!.headers['accept-encoding']).toMatch(/\bgzip\b/);
  });

  it('reads a compressed error body into its typed error', async () => {
    const body = { error: { code: 'RESOURCE_NOT_FOUND', message: 'No such contact', details: {} } };
    server.handle((_, res) => encoded(res, 404, 'gzip', gzipSync(JSON.stringify(body))));
    const error = await client()
      .contacts.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND', details: {} });
    expect((error as ResourceNotFoundError).message).toContain('No such contact');
  });

  it('drops a byte order mark before the JSON, as fetch’s text() does', async () => {
    server.handle((_, res) =>
      res.end(
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"data":{"id":1,"phone":"+4915112345678"}}')]),
      ),
    );
    expect(await client().contacts.get(1)).toEqual({ id: 1, phone: '+4915112345678' });
  });

  it('does not follow a redirect, even to its own origin: the 3xx is the answer (real-wire.integration.test.ts has the rest)', async () => {
    server.handle((request, res) => {
      if (request.path === '/api/v1/contacts/1') {
        res.writeHead(302, { location: '/api/v1/contacts/2' });
        res.end();
      } else res.end(JSON.stringify({ data: contact('moved') }));
    });
    const error = (await client()
      .contacts.get(1)
      .catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.code]).toEqual([302, 'HTTP_302']);
    expect(server.received.map((r) => r.path)).toEqual(['/api/v1/contacts/1']);
  });

  it('fails a body that cannot be decoded, or is cut short, as a connection error, and retries a GET', async () => {
    server.handle((_, res) => encoded(res, 200, 'gzip', Buffer.from('not gzip at all')));
    const garbled = await client()
      .contacts.get(1)
      .catch((e: unknown) => e);
    expect(garbled).toBeInstanceOf(ConnectionError);
    expect((garbled as ConnectionError).message).toMatch(/^GET \/contacts\/1 failed to connect to 127\.0\.0\.1:\d+/);

    let calls = 0;
    server.handle((_, res) => {
      if (++calls > 1) return res.end(JSON.stringify({ data: contact('whole') }));
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"data":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    expect(await client(1).contacts.get(1)).toEqual(contact('whole'));
    expect(calls).toBe(2);
  });

  it('sends through the dispatcher a user set for fetch (a proxy, a mock agent)', async () => {
    const previous = getGlobalDispatcher();
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get(server.origin)
      .intercept({ path: '/api/v1/contacts/1', method: 'GET' })
      .reply(200, JSON.stringify({ data: contact('mock agent') }));
    setGlobalDispatcher(agent);
    try {
      expect(await client().contacts.get(1)).toEqual(contact('mock agent'));
      expect(server.received).toEqual([]);
    } finally {
      setGlobalDispatcher(previous);
      await agent.close();
    }
  });
});
