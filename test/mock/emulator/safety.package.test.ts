import { spawnSync } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { connectMock } from '../../../src/mock/index.js';
import { unusedPort, useTestServer, type ReceivedRequest } from '../../helpers/http-server.js';
import { BIN, useMockProcesses, type MockProcess } from '../../helpers/mock-process.js';
import { exchange, rawRequest } from '../../helpers/raw-http.js';

// The emulator on a developer's laptop, tried as an attacker would over real HTTP against the bin:
// a webhook URL pointing back at the mock (or a receiver passing a delivery on to it), and a page of
// another site that rebinds its name to 127.0.0.1 (Chromium's side: test/mock/dashboard/rebinding.browser.test.ts).

/** The header every delivery of a bizmsg mock carries. */
const MARKER = 'x-bizmsg-mock-delivery';

const receiver = useTestServer();
const startProcess = useMockProcesses();

/** A bizmsg-mock process, quiet. */
function start(args: string[] = []) {
  return startProcess(['--quiet', ...args]);
}

/** A delivery's headers as a receiver passing it on sends them: all but those of its own connection. */
function passedOn(request: ReceivedRequest): Record<string, string> {
  const { host: _host, 'content-length': _length, ...headers } = request.headers as Record<string, string>;
  return headers;
}

/** This machine's addresses on its other interfaces, as a URL writes them. */
function interfaceHosts(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((address) => address !== undefined && !address.internal && !address.address.includes('%'))
    .filter((address) => !address!.address.startsWith('fe80:'))
    .map((address) => (address!.family === 'IPv6' ? `[${address!.address}]` : address!.address));
}

describe('no delivery to the mock itself', () => {
  it('refuses a webhook URL that reaches its own server, however it is spelled, naming `url`, and registers nothing', async () => {
    const mock = await start();
    const { port } = mock;
    const hosts = [
      '127.0.0.1',
      'localhost',
      'LOCALHOST.',
      'app.localhost',
      '127.7.7.7',
      '[::1]',
      '[0:0:0:0:0:0:0:1]',
      '0.0.0.0',
      '[::]',
      // What WHATWG URL reads as 127.0.0.1: decimal, hex and octal, and short forms.
      '2130706433',
      '0x7f.1',
      '017700000001',
      '127.1',
      '127.0.0.1.',
      // IPv4-mapped IPv6, which the kernel delivers to 127.0.0.1.
      '[::ffff:127.0.0.1]',
      ...interfaceHosts(),
    ];
    const service = (url: string) =>
      fetch(`${mock.url}/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url, events: ['message.sent'], secret: 'whsec_x' }),
      });
    for (const host of hosts) {
      const url = `http://${host}:${port}/_bizmsg/reset`;
      // As the mock understood it: WHATWG URL's reading, the mapped address unmasked.
      const shown = new URL(url).hostname.replace(/\.$/, '').replace('[::ffff:7f00:1]', '127.0.0.1');
      const problem = `must not point at this mock itself (${shown}:${port} reaches it)`;
      const answer = await service(url);
      expect([url, answer.status, await answer.json()]).toEqual([
        url,
        422,
        {
          error: { code: 'VALIDATION_ERROR', message: 'Invalid request parameters: url.', details: { url: [problem] } },
        },
      ]);
      const control = await fetch(`${new URL(mock.url).origin}/_bizmsg/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url, events: ['message.sent'], secret: 's' }),
      });
      expect([control.status, await control.json()]).toEqual([
        400,
        {
          error: { code: 'INVALID_ARGUMENT', message: `registerWebhook: url ${problem}.`, details: { url: [problem] } },
        },
      ]);
    }
    // The same scheme and name on another port is a receiver, as a local one always is.
    expect((await service(`http://127.0.0.1:${port === 65535 ? 1 : port + 1}/hooks`)).status).toBe(201);
    expect((await service(`https://localhost:${port}/hooks`)).status).toBe(422);
    expect((await connectMock(mock.url).state()).webhooks).toHaveLength(1);
  });

  it('refuses --forward-to its own server, naming the flag, with exit code 2', async () => {
    const port = await unusedPort();
    const run = spawnSync(
      process.execPath,
      [BIN, '--port', String(port), '--forward-to', `http://localhost:${port}/x`],
      {
        encoding: 'utf8',
        timeout: 10_000,
      },
    );
    expect([run.status, run.stderr.split('\n')[0]]).toEqual([
      2,
      `bizmsg-mock: --forward-to http://localhost:${port}/x must not point at this mock itself (localhost:${port} reaches it)`,
    ]);
  });

  it('marks its deliveries, and refuses every route to a request carrying the mark: a receiver passing a delivery on cannot steer it', async () => {
    const mock = await start();
    const origin = new URL(mock.url).origin;
    const control = connectMock(mock.url);
    // A receiver that passes each delivery on to the mock's control API, headers and all, as a local proxy would.
    const relayed: number[] = [];
    receiver.handle(async (request, res) => {
      const headers = passedOn(request);
      const passed = await fetch(`${origin}/_bizmsg/reset`, { method: 'POST', headers, body: request.body });
      relayed.push(passed.status);
      res.end('ok');
    });
    await control.registerWebhook({ url: `${receiver.origin}/relay`, events: ['message.received'], secret: 's' });
    await control.receiveMessage({ from: '+4915112345678', body: 'hello' });
    expect(receiver.received[0]!.headers[MARKER]).toBe('1');
    expect(relayed).toEqual([403]);
    // Not reset: the endpoint and the conversation are still there.
    const state = await control.state();
    expect([state.webhooks.length, state.conversations.length]).toEqual([1, 1]);

    const marked = { [MARKER]: '1', authorization: `Bearer ${mock.apiKey}` };
    const routes: Array<[string, string]> = [
      ['GET', '/api/v1/account/me'],
      ['GET', '/api/v1/openapi.json'],
      ['POST', '/_bizmsg/reset'],
      ['GET', '/_bizmsg/health'],
      ['GET', '/_bizmsg/stream'],
      ['GET', '/'],
      ['GET', '/_dashboard/app.js'],
    ];
    const answers = [];
    for (const [method, path] of routes) {
      const answer = (await exchange(mock.port, rawRequest(method, path, { ...marked, connection: 'close' })))!;
      answers.push([method, path, answer.status, answer.headers['content-type']]);
    }
    expect(answers).toEqual([
      ['GET', '/api/v1/account/me', 403, 'application/json'],
      ['GET', '/api/v1/openapi.json', 403, 'application/json'],
      ['POST', '/_bizmsg/reset', 403, 'application/json'],
      ['GET', '/_bizmsg/health', 403, 'application/json'],
      ['GET', '/_bizmsg/stream', 403, 'application/json'],
      ['GET', '/', 403, 'text/plain; charset=utf-8'],
      ['GET', '/_dashboard/app.js', 403, 'text/plain; charset=utf-8'],
    ]);
    const refused = (await exchange(mock.port, rawRequest('GET', '/api/v1/account/me', marked)))!;
    expect(JSON.parse(refused.body)).toEqual({
      error: {
        code: 'INSUFFICIENT_PERMISSIONS',
        message:
          'This request carries X-Bizmsg-Mock-Delivery: it is a webhook delivery of a bizmsg mock that a webhook URL (or a receiver passing it on) led back to a mock. Mocks refuse their own deliveries, so that no delivery can steer a mock or loop.',
        details: { [MARKER]: ['marks a delivery of a bizmsg mock'] },
      },
    });
  });

  it('stops a receiver that answers each delivery by asking for it again, headers and all, at the first turn', async () => {
    const mock = await start();
    const origin = new URL(mock.url).origin;
    const control = connectMock(mock.url);
    const relayed: number[] = [];
    receiver.handle(async (request, res) => {
      res.end('ok');
      const headers = passedOn(request);
      // Twice, as the loop did with two sends: without the mark refused, each delivery doubles.
      for (let i = 0; i < 2; i++) {
        const again = await fetch(`${origin}/_bizmsg/deliveries/1/redeliver`, { method: 'POST', headers });
        relayed.push(again.status);
      }
    });
    await control.registerWebhook({ url: `${receiver.origin}/loop`, events: ['contact.created'], secret: 's' });
    await control.emit('contact.created');
    // Both asks answered: refused, they started no delivery that could ask again.
    await vi.waitFor(() => expect(relayed).toEqual([403, 403]), { timeout: 10_000, interval: 20 });
    expect((await control.deliveries()).length).toBe(1);
    expect((await control.health()).ok).toBe(true);
  });
});

describe('Host on every route', () => {
  const routes = [
    ['GET', '/api/v1/contacts'],
    ['GET', '/api/v1/openapi.json'],
    ['POST', '/api/v1/messages/send'],
    ['GET', '/_bizmsg/state'],
    ['GET', '/_bizmsg/stream'],
    ['GET', '/'],
    ['GET', '/_dashboard/app.js'],
    ['GET', '/elsewhere'],
  ] as const;

  async function statuses(mock: MockProcess, host: string): Promise<number[]> {
    const found: number[] = [];
    for (const [method, path] of routes) {
      const headers = { host, authorization: `Bearer ${mock.apiKey}`, connection: 'close' };
      const body = method === 'POST' ? '{}' : undefined;
      // The head is enough: the stream's body never ends.
      const answer = await exchange(mock.port, rawRequest(method, path, headers, body), { head: true });
      found.push(answer!.status);
    }
    return found;
  }

  it("refuses a name that is not its own (a page rebinding its name to 127.0.0.1) on every route, in each route's own form", async () => {
    const mock = await start();
    const { port } = mock;
    expect(await statuses(mock, `evil.example:${port}`)).toEqual([403, 403, 403, 403, 403, 403, 403, 403]);
    const api = (await exchange(
      port,
      rawRequest('GET', '/api/v1/contacts', { host: `Evil.Example:${port}`, authorization: `Bearer ${mock.apiKey}` }),
    ))!;
    expect(JSON.parse(api.body)).toEqual({
      error: {
        code: 'INSUFFICIENT_PERMISSIONS',
        message:
          "Host evil.example is not one of this mock's names: it answers to localhost (and *.localhost), 127.0.0.1, [::1], any IP address and the names given to --allowed-hosts (allowedHosts), so that a page of another site that rebinds its name to this machine cannot reach it.",
        details: { host: ["is not one of this mock's names"] },
      },
    });
    const page = (await exchange(port, rawRequest('GET', '/', { host: `evil.example:${port}` })))!;
    expect([page.status, page.headers['content-type'], page.body]).toEqual([
      403,
      'text/plain; charset=utf-8',
      `${JSON.parse(api.body).error.message}\n`,
    ]);
    const controlAnswer = (await exchange(
      port,
      rawRequest('GET', '/_bizmsg/state', { host: `evil.example:${port}` }),
    ))!;
    expect(JSON.parse(controlAnswer.body)).toEqual({
      error: {
        code: 'FORBIDDEN',
        message: JSON.parse(api.body).error.message,
        details: { host: ["is not one of this mock's names"] },
      },
    });
    // A Host longer than any host name is cut in the refusal, not quoted whole.
    const long = `${'a'.repeat(7000)}.example`;
    const cut = JSON.parse((await exchange(port, rawRequest('GET', '/api/v1/contacts', { host: long })))!.body);
    expect(cut.error.message).toMatch(
      new RegExp(`^Host a{253}… \\(7008 characters\\) is not one of this mock's names: `),
    );
    // Nothing was sent, nothing journaled.
    expect(await connectMock(mock.url).requests()).toEqual([]);
  });

  it('answers its own names on any port (a port forward keeps the name), any IP address, and no Host at all', async () => {
    const mock = await start();
    for (const host of [
      `localhost:${mock.port}`,
      'localhost',
      `app.localhost:${mock.port}`,
      `127.0.0.1:${mock.port}`,
      `[::1]:8080`,
      '192.0.2.7',
      '[fd00::7]:1',
    ]) {
      const found = await statuses(mock, host);
      expect([host, found]).toEqual([host, [200, 200, 422, 200, 200, found[5], found[6], 404]]);
      // The page and its assets: served, or missing from a build without them, never refused.
      expect(found.slice(5, 7).every((status) => status !== 403)).toBe(true);
    }
    const bare = await exchange(mock.port, Buffer.from(`GET /_bizmsg/health HTTP/1.0\r\n\r\n`));
    expect(bare!.status).toBe(200);
  });

  it('answers the names of --allowed-hosts too: one name, or a domain and its subdomains with a leading dot', async () => {
    const mock = await start(['--allowed-hosts', 'dev.example,.tunnel.example']);
    for (const host of ['dev.example', 'tunnel.example:443', 'a.b.tunnel.example'])
      expect((await statuses(mock, host))[0]).toBe(200);
    for (const host of ['other.dev.example', 'eviltunnel.example', 'evil.example'])
      expect((await statuses(mock, host))[0]).toBe(403);
    const bad = spawnSync(process.execPath, [BIN, '--port', '0', '--allowed-hosts', 'a b'], { encoding: 'utf8' });
    expect([bad.status, bad.stderr.split('\n')[0]]).toEqual([
      2,
      'bizmsg-mock: --allowed-hosts must be host names separated by commas (a leading dot takes in subdomains), got "a b"',
    ]);
  });
});
