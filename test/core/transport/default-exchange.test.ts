import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { MockAgent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultExchange } from '../../../src/core/transport/default-exchange.node.js';
import { fetchExchange, type Answer, type Exchange } from '../../../src/core/transport/exchange.js';

// The Node exchange is held to Node's own fetch: the same request on the wire, the same answer
// read back, the same failures. A direct answer is told apart by its body-less Response.

type Route = (req: IncomingMessage, res: ServerResponse) => void;

const seen: { method: string; path: string; headers: string[]; body: string }[] = [];

const routes: Record<string, Route> = {
  '/json': (_, res) => json(res, 200, { id: 1, name: 'Ada' }),
  '/missing': (_, res) => {
    res.writeHead(404, 'Not There', { 'content-type': 'application/json', 'x-a': '1' });
    res.end('{"error":{"code":"RESOURCE_NOT_FOUND"}}');
  },
  '/twice': (_, res) => {
    res.setHeader('x-many', ['a', 'b']);
    res.end('two headers');
  },
  '/gzip': (_, res) => encoded(res, 'gzip', gzipSync('{"coded":"gzip"}')),
  '/x-gzip': (_, res) => encoded(res, 'X-Gzip', gzipSync('{"coded":"x-gzip"}')),
  '/deflate': (_, res) => encoded(res, 'deflate', deflateSync('{"coded":"deflate"}')),
  '/deflate-raw': (_, res) => encoded(res, 'deflate', deflateRawSync('{"coded":"raw deflate"}')),
  '/br': (_, res) => encoded(res, 'br', brotliCompressSync('{"coded":"br"}')),
  '/gzip-br': (_, res) => encoded(res, 'gzip, br', brotliCompressSync(gzipSync('{"coded":"both"}'))),
  '/unknown-coding': (_, res) => encoded(res, 'compress', Buffer.from('left as it came')),
  // Node 24's fetch (undici 7) undoes zstd, Node 20's and 22's leave it: the exchange does as they do.
  '/zstd': (_, res) => encoded(res, 'zstd', Buffer.from('28b52ffd20108100007b22636f646564223a227a737464227d', 'hex')),
  '/bad-gzip': (_, res) => encoded(res, 'gzip', Buffer.from('not gzip at all')),
  '/empty': (_, res) => {
    res.writeHead(204);
    res.end();
  },
  '/bom': (_, res) => res.end(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])),
  '/bad-utf8': (_, res) => res.end(Buffer.from([0x22, 0xff, 0xfe, 0x22])),
  '/reset': (req) => req.socket.destroy(),
  '/truncated': (_, res) => {
    res.writeHead(200, { 'content-length': '100' });
    res.write('only part of it');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  '/slow-body': (_, res) => {
    res.writeHead(200, { 'content-length': '100' });
    res.write('the rest never comes');
  },
  '/redirect': (_, res) => {
    res.writeHead(302, { location: '/json' });
    res.end();
  },
};

function json(res: ServerResponse, status: number, value: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function encoded(res: ServerResponse, coding: string, bytes: Buffer) {
  res.writeHead(200, { 'content-encoding': coding, 'content-type': 'application/json' });
  res.end(bytes);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const path = req.url!.split('?')[0]!;
    // Field order means nothing across names (RFC 9110 5.3), and Headers gives no other order than sorted.
    const headers: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    seen.push({ method: req.method!, path: req.url!, headers: headers.sort(), body: Buffer.concat(chunks).toString() });
    (routes[path] ?? routes['/json']!)(req, res);
  });
});
let origin = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const viaFetch = fetchExchange((input, init) => globalThis.fetch(input, init));

/** A Node exchange that fetch has already answered once for the server's origin, as a client's is after its first request. */
async function warmExchange(): Promise<Exchange> {
  const exchange = defaultExchange(true);
  await (await exchange(new Request(`${origin}/json`), undefined)).text();
  return exchange;
}

function request(method: string, path: string, body?: string, signal?: AbortSignal): Request {
  const headers = { accept: 'application/json', authorization: 'Bearer k', 'x-custom': 'y' };
  return new Request(`${origin}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body,
    signal,
  });
}

/** Everything a caller can read of an answer. */
async function read(answer: Promise<Answer>) {
  try {
    const { response, text } = await answer;
    const headers = [...response.headers].filter(([name]) => name !== 'date' && name !== 'keep-alive');
    const body = await text().then(
      (value) => ({ value }),
      (error: Error) => ({ error: describeError(error) }),
    );
    return { status: response.status, statusText: response.statusText, headers, body };
  } catch (error) {
    return { error: describeError(error as Error) };
  }
}

function describeError(error: Error): string {
  const cause = error.cause as { code?: string; name?: string } | undefined;
  return `${error.name}: ${error.message} (${cause?.code ?? cause?.name ?? 'no cause'})`;
}

/** Whether the answer came straight from the dispatcher (its Response has no body of its own). */
async function isDirect(answer: Promise<Answer>): Promise<boolean> {
  const { response, text } = await answer;
  await text().catch(() => undefined);
  return response.body === null && response.status === 200;
}

describe('the Node exchange, held to Node’s own fetch', () => {
  it('sends the same request line, header fields and body as fetch', async () => {
    const exchange = await warmExchange();
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', '{"name":"Ada"}'],
      ['DELETE', undefined],
    ] as const) {
      seen.length = 0;
      await (await viaFetch(request(method, '/json?page=2', body), undefined)).text();
      const answer = await exchange(request(method, '/json?page=2', body), undefined, body);
      await answer.text();
      expect(answer.response.body, method).toBeNull();
      expect(seen[1], method).toEqual(seen[0]);
    }
  });

  it('reads back the same status, reason, headers and text as fetch, decoding as fetch decodes', async () => {
    const exchange = await warmExchange();
    const paths = Object.keys(routes).filter(
      (path) => !['/reset', '/truncated', '/slow-body', '/redirect'].includes(path),
    );
    for (const path of paths) {
      const expected = await read(viaFetch(request('GET', path), undefined));
      expect(await read(exchange(request('GET', path), undefined)), path).toEqual(expected);
    }
  });

  it('fails as fetch fails: a reset before the answer, a body cut short', async () => {
    const exchange = await warmExchange();
    const reset = await read(viaFetch(request('GET', '/reset'), undefined));
    expect(reset).toEqual({
      error: expect.stringMatching(/^TypeError: fetch failed \((UND_ERR_SOCKET|ECONNRESET)\)$/),
    });
    expect(await read(exchange(request('GET', '/reset'), undefined))).toEqual(reset);
    const truncated = await read(viaFetch(request('GET', '/truncated'), undefined));
    expect(truncated).toMatchObject({ status: 200, body: { error: expect.stringMatching(/^TypeError: terminated/) } });
    expect(await read(exchange(request('GET', '/truncated'), undefined))).toEqual(truncated);
  });

  it('rejects with the signal’s reason when aborted before sending or while the body is read', async () => {
    const exchange = await warmExchange();
    const aborted = AbortSignal.abort(new Error('stop'));
    await expect(exchange(request('GET', '/json', undefined, aborted), undefined)).rejects.toThrow('stop');
    const controller = new AbortController();
    const answer = await exchange(request('GET', '/slow-body', undefined, controller.signal), undefined);
    const text = answer.text();
    controller.abort(new Error('stopped midway'));
    await expect(text).rejects.toThrow('stopped midway');
  });

  it('goes through fetch until fetch has answered the origin, and for POSTs always', async () => {
    const exchange = defaultExchange(true);
    expect(await isDirect(exchange(request('GET', '/json'), undefined))).toBe(false);
    expect(await isDirect(exchange(request('GET', '/json'), undefined))).toBe(true);
    expect(await isDirect(exchange(request('POST', '/json', '{}'), undefined, '{}'))).toBe(false);
  });

  it('goes through fetch when hooks may change requests, or fetch options are given', async () => {
    const hooked = defaultExchange(false);
    await (await hooked(request('GET', '/json'), undefined)).text();
    expect(await isDirect(hooked(request('GET', '/json'), undefined))).toBe(false);
    const exchange = await warmExchange();
    expect(await isDirect(exchange(request('GET', '/json'), { keepalive: true }))).toBe(false);
  });

  it('calls globalThis.fetch at each attempt once it is not Node’s own (msw, a test’s stub)', async () => {
    const exchange = await warmExchange();
    const own = globalThis.fetch;
    const stub = vi.fn((input: RequestInfo | URL, init?: RequestInit) => own(input, init));
    globalThis.fetch = stub;
    try {
      expect(await isDirect(exchange(request('GET', '/json'), undefined))).toBe(false);
      expect(stub).toHaveBeenCalledTimes(1);
    } finally {
      globalThis.fetch = own;
    }
    expect(await isDirect(exchange(request('GET', '/json'), undefined))).toBe(true);
  });

  it('sends a request answered with a redirect again through fetch, which follows it, and stays on fetch', async () => {
    const exchange = await warmExchange();
    seen.length = 0;
    const answer = await exchange(request('GET', '/redirect'), undefined);
    expect(await answer.text()).toBe('{"id":1,"name":"Ada"}');
    expect(answer.response.redirected).toBe(true);
    expect(seen.map((r) => r.path)).toEqual(['/redirect', '/redirect', '/json']);
    expect(await isDirect(exchange(request('GET', '/json'), undefined))).toBe(false);
  });

  it('sends through the dispatcher a user set for fetch (a proxy, a mock agent)', async () => {
    const exchange = await warmExchange();
    const previous = getGlobalDispatcher();
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get(origin).intercept({ path: '/json', method: 'GET' }).reply(200, '{"from":"mock agent"}');
    setGlobalDispatcher(agent);
    try {
      const answer = await exchange(request('GET', '/json'), undefined);
      expect(answer.response.body).toBeNull();
      expect(await answer.text()).toBe('{"from":"mock agent"}');
    } finally {
      setGlobalDispatcher(previous);
      await agent.close();
    }
  });
});
