import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inspect } from 'node:util';
import { BizMsgError, ConnectionError, TimeoutError, Variant1Client, Variant2Client } from '../../../src/index.js';
import { sendJson, startTestServer, unusedPort } from '../../helpers/http-server.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('over a real socket', () => {
  it('retries a refused connection, even for a send, then reports it as not processed', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const port = await unusedPort();
    const client = new Variant2Client({ apiKey: 'k', baseUrl: `http://127.0.0.1:${port}/api/v1`, maxRetries: 1 });
    const error = (await client.messages
      .sendText({ to: '4915112345678', messaging_account_id: 1, body: 'x' })
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe(
      `POST /messages/send failed to connect to 127.0.0.1:${port} (ECONNREFUSED); retries used up`,
    );
    expect(error.mayHaveBeenProcessed).toBe(false);
  });

  it('names the host and port it tried, the default port of the scheme too, and never the key', async () => {
    const port = await unusedPort();
    const refused = async (apiKey: string, baseUrl: string) =>
      ((await new Variant2Client({ apiKey, baseUrl, maxRetries: 0 }).account.me().catch((e: unknown) => e)) as Error)
        .message;
    expect(await refused('k', `http://localhost:${port}/api/v1`)).toBe(
      `GET /account/me failed to connect to localhost:${port} (ECONNREFUSED); not retried (maxRetries: 0)`,
    );
    // A key that happens to be the host is still not shown.
    const message = await refused('sk_in_the_host', `http://sk_in_the_host.localhost:${port}/api/v1`);
    expect(message).not.toContain('sk_in_the_host');
    expect(message).toMatch(new RegExp(`failed to connect to .*\\.localhost:${port} `));
    // A host comes back lower-cased (URL parsing lowers it): a key in capitals is not shown either.
    const upper = (await new Variant2Client({
      apiKey: 'sk_In_The_Host',
      baseUrl: `http://sk_In_The_Host.localhost:${port}/api/v1`,
      maxRetries: 0,
    }).account
      .me()
      .catch((e: unknown) => e)) as ConnectionError;
    for (const text of [upper.message, JSON.stringify(upper), inspect(upper, { depth: 10 })])
      expect(text.toLowerCase()).not.toContain('sk_in_the_host');
  });

  it('does not repeat a send whose socket closed after the server read it', async () => {
    server.handle((_, res) => res.socket?.destroy());
    const client = new Variant2Client({ apiKey: 'k', baseUrl: server.baseUrl });
    const before = server.received.length;
    const error = (await client.messages
      .sendText({ to: '4915112345678', messaging_account_id: 1, body: 'x' })
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.mayHaveBeenProcessed).toBe(true);
    expect(error.message).toMatch(
      /^POST \/messages\/send failed to connect to 127\.0\.0\.1:\d+ \((UND_ERR_SOCKET|ECONNRESET)\) after the request may have been sent; it was not retried to avoid a duplicate$/,
    );
    expect(server.received.length - before).toBe(1);
  });

  it('retries a GET whose socket closed, and succeeds', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    let calls = 0;
    server.handle((_, res) =>
      ++calls === 1 ? res.socket?.destroy() : sendJson(res, 200, { id: 1, phone: '4915112345678' }),
    );
    const client = new Variant2Client({ apiKey: 'k', baseUrl: server.baseUrl });
    await expect(client.contacts.get(1)).resolves.toEqual({ id: 1, phone: '4915112345678' });
    expect(calls).toBe(2);
  });

  it('times out a slow response and names the limit', async () => {
    server.handle((_, res) => {
      setTimeout(() => sendJson(res, 200, { id: 1, phone: '1' }), 2000).unref();
    });
    const client = new Variant2Client({ apiKey: 'k', baseUrl: server.baseUrl, maxRetries: 0 });
    const error = (await client.contacts.get(1, { timeout: 100 }).catch((e: unknown) => e)) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe('GET /contacts/1 timed out after 100 ms; not retried (maxRetries: 0)');
  });

  it('times out a body that stalls after the headers', async () => {
    server.handle((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":');
    });
    const client = new Variant2Client({ apiKey: 'k', baseUrl: server.baseUrl, maxRetries: 0, timeout: 150 });
    expect(await client.contacts.get(1).catch((e: unknown) => e)).toBeInstanceOf(TimeoutError);
  });

  it('uses globalThis.fetch at call time, so interceptors installed later apply', async () => {
    server.handle((_, res) => sendJson(res, 200, { id: 1, phone: 'real' }));
    const client = new Variant2Client({ apiKey: 'k', baseUrl: server.baseUrl });
    const original = globalThis.fetch;
    globalThis.fetch = async () => Response.json({ id: 1, phone: 'intercepted' });
    try {
      await expect(client.contacts.get(1)).resolves.toEqual({ id: 1, phone: 'intercepted' });
    } finally {
      globalThis.fetch = original;
    }
  });
});

describe('a fetch whose error shows the key (a user-given fetch that logs its headers)', () => {
  const KEY = 'sk_live_shown_by_fetch_0123456789';
  it.each([
    ['Variant 1', Variant1Client],
    ['Variant 2', Variant2Client],
  ] as const)('%s: no copy of the key in the error, its causes, JSON, String or inspect', async (_, Client) => {
    const client = new Client({
      apiKey: KEY,
      baseUrl: 'https://fetch-shows-key.bizmsg.test/api/v1',
      maxRetries: 0,
      fetch: async (input) => {
        const headers = [...(input as Request).headers].map(([name, value]) => `${name}=${value}`).join(' ');
        const socket = Object.assign(new Error(`socket closed; sent ${headers}`), { code: 'ECONNRESET', headers });
        throw new TypeError(`fetch failed (${headers})`, { cause: socket });
      },
    });
    const error = (await client.account.me().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(BizMsgError);
    expect(error.cause).toBeInstanceOf(Error);
    for (const text of [error.message, JSON.stringify(error), String(error.cause), inspect(error, { depth: 10 })]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(KEY.slice(0, 16));
    }
    expect(String(error.cause)).toContain('[REDACTED]');
  });

  it('keeps the cause as it was thrown when it does not show the key', async () => {
    const thrown = new TypeError('fetch failed', { cause: new Error('socket closed') });
    const client = new Variant2Client({
      apiKey: KEY,
      baseUrl: 'https://fetch-shows-key.bizmsg.test/api/v1',
      maxRetries: 0,
      fetch: async () => {
        throw thrown;
      },
    });
    const error = (await client.account.me().catch((e: unknown) => e)) as Error;
    expect(error.cause).toBe(thrown);
  });
});

describe("a port fetch refuses (the Fetch standard's blocked ports)", () => {
  it.each(['GET', 'POST'])(
    '%s: not sent, not retried, not flagged as processed, and says which option to change',
    async (method) => {
      let attempts = 0;
      const client = new Variant2Client({
        apiKey: 'k',
        baseUrl: 'http://127.0.0.1:1/api/v1',
        fetch: (input, init) => {
          attempts += 1;
          return fetch(input, init);
        },
      });
      const call =
        method === 'GET' ? client.contacts.get(1) : client.contacts.create({ name: 'Ada', phone: '4915112345678' });
      const error = (await call.catch((e: unknown) => e)) as ConnectionError;
      expect(error).toBeInstanceOf(ConnectionError);
      expect([error.message, error.mayHaveBeenProcessed, attempts]).toEqual([
        `${method} /contacts${method === 'GET' ? '/1' : ''} was not sent: fetch refuses the base URL's port, one of the ports the Fetch standard blocks; give \`baseUrl\` another port`,
        false,
        1,
      ]);
    },
  );
});
