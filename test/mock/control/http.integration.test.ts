import { validate } from '@readme/openapi-parser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectMock, startMockHttpServer, type MockHttpServer } from '../../../src/mock/index.js';
import { CONTROL_ROUTES } from '../../../src/mock/control/routes.js';
import { BizMsgError, InvalidArgumentError } from '../../../src/index.js';
import { startTestServer } from '../../helpers/http-server.js';
import { RawConnection } from '../../helpers/raw-http.js';

const servers: MockHttpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(options: Parameters<typeof startMockHttpServer>[0] = {}) {
  const server = await startMockHttpServer(options);
  servers.push(server);
  return server;
}

/** A raw call to the control API, answered as status and parsed JSON. */
async function call(
  server: MockHttpServer,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string; origin?: string } = {},
) {
  const response = await fetch(`${init.origin ?? server.origin}/_bizmsg${path}`, {
    method,
    headers: init.headers ?? {},
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
}

const TOKEN = 'control-token-for-tests-0123456789';

describe('who may call the control API', () => {
  it('needs no credentials on a loopback address, but the token once one is given', async () => {
    const open = await start();
    expect(open.controlToken).toBe(undefined);
    expect((await call(open, 'GET', '/health')).status).toBe(200);
    const guarded = await start({ controlToken: TOKEN });
    expect(await call(guarded, 'GET', '/health')).toEqual({
      status: 401,
      headers: expect.anything(),
      body: {
        error: {
          code: 'UNAUTHORIZED',
          message:
            'The control API needs the control token: send Authorization: Bearer <token> (bizmsg-mock prints it at start; --control-token sets it).',
          details: {},
        },
      },
    });
    expect((await call(guarded, 'GET', '/health', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    expect((await call(guarded, 'GET', '/health', { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(
      401,
    );
    await expect(connectMock(guarded.baseUrl).health()).rejects.toThrow(
      new BizMsgError(
        'GET /_bizmsg/health failed with 401: The control API needs the control token: send Authorization: Bearer <token> (bizmsg-mock prints it at start; --control-token sets it).',
      ),
    );
    expect((await connectMock(guarded.baseUrl, { controlToken: TOKEN }).health()).ok).toBe(true);
  });

  it('requires a token on any other address, a random one when none is given', async () => {
    const shared = await start({ host: '0.0.0.0' });
    expect(shared.controlToken).toMatch(/^[\w-]{32}$/);
    // It names the address this machine can always reach, and hands out keys no one can work out from the default seed.
    expect(shared.baseUrl).toBe(`http://127.0.0.1:${new URL(shared.origin).port}/api/v1`);
    expect(shared.apiKey).not.toBe((await start()).apiKey);
    expect((await start({ host: '0.0.0.0', seed: 7 })).apiKey).toBe((await start({ seed: 7 })).apiKey);
    const loopback = shared.origin;
    expect((await call(shared, 'GET', '/state', { origin: loopback })).status).toBe(401);
    const authorized = { origin: loopback, headers: { authorization: `Bearer ${shared.controlToken!}` } };
    expect((await call(shared, 'GET', '/health', authorized)).body).toEqual(
      expect.objectContaining({ ok: true, variant: 2 }),
    );
  });

  it('is never opened by an API key, and its token never opens the service', async () => {
    const server = await start({ controlToken: TOKEN });
    const asKey = await call(server, 'POST', '/reset', { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(asKey.status).toBe(401);
    const service = await fetch(`${server.baseUrl}/account/me`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect([service.status, (await service.json()).error.code]).toEqual([401, 'AUTHENTICATION_ERROR']);
  });

  it("refuses a page of another origin, and a Host that is not one of the mock's names", async () => {
    const server = await start();
    const port = new URL(server.origin).port;
    expect(
      (await call(server, 'POST', '/reset', { headers: { origin: 'https://evil.example' } })).body.error.code,
    ).toBe('FORBIDDEN');
    expect((await call(server, 'POST', '/reset', { headers: { origin: server.origin } })).status).toBe(204);
    expect((await call(server, 'POST', '/reset', { headers: { origin: `http://localhost:${port}` } })).status).toBe(
      403,
    );
    // A site that rebinds its name to 127.0.0.1 names itself in Host (fetch cannot set Host: a raw request).
    const hostCall = async (host: string) => {
      const connection = await RawConnection.open(Number(port));
      connection.write(`GET /_bizmsg/state HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      const response = (await connection.response())!;
      return [response.status, (JSON.parse(response.body) as { error?: { message: string } }).error?.message];
    };
    expect(await hostCall(`rebound.example:${port}`)).toEqual([
      403,
      "Host rebound.example is not one of this mock's names: it answers to localhost (and *.localhost), 127.0.0.1, [::1], any IP address and the names given to --allowed-hosts (allowedHosts), so that a page of another site that rebinds its name to this machine cannot reach it.",
    ]);
    expect(await hostCall(`localhost:${port}`)).toEqual([200, undefined]);
  });
});

describe('refused calls', () => {
  it('say what was wrong in a JSON error, and change nothing', async () => {
    const server = await start();
    const before = (await call(server, 'GET', '/state')).body;
    const json = { 'content-type': 'application/json' };
    const refusals = [
      await call(server, 'POST', '/inbound', { headers: json, body: '{"from":"+4915112345678"}' }),
      await call(server, 'POST', '/inbound', { headers: json, body: '{"from":"+4915112345678","body":"hi","x":1}' }),
      await call(server, 'POST', '/inbound', { headers: json, body: '{not json' }),
      await call(server, 'POST', '/inbound', { headers: { 'content-type': 'text/plain' }, body: '{}' }),
      await call(server, 'PATCH', '/conversations/abc', { headers: json, body: '{}' }),
      await call(server, 'PATCH', '/conversations/9', { headers: json, body: '{"status":"closed"}' }),
      await call(server, 'PUT', '/faults'),
      await call(server, 'GET', '/nowhere'),
      await call(server, 'POST', '/clock/advance', {
        headers: json,
        body: `{"ms":1,"pad":"${'x'.repeat(1_100_000)}"}`,
      }),
      await call(server, 'POST', '/clock/advance', { headers: json, body: 'null' }),
      await call(server, 'PATCH', '/conversations/01', { headers: json, body: '{}' }),
      await call(server, 'GET', '/requests?limit=-1'),
      await call(server, 'GET', '/requests?limit=1.5'),
      await call(server, 'POST', '/webhooks', {
        headers: json,
        body: '{"url":"https://h.example/x","events":["message.sent"],"secret":"s","extra":1}',
      }),
      // Found by an outside tester: a 500 once the body was spread.
      ...(await Promise.all(
        ['/inbound', '/faults', '/webhooks'].map((path) =>
          call(server, 'POST', path, {
            headers: { 'content-type': 'application/json' },
            body: '{"from":"+4915112345678","body":"x","__proto__":{"a":1}}',
          }),
        ),
      )),
    ];
    expect(refusals.map((r) => [r.status, r.body.error.code, r.body.error.message, r.body.error.details])).toEqual([
      [400, 'INVALID_ARGUMENT', 'The body: body is required.', { body: ['is required'] }],
      [400, 'INVALID_ARGUMENT', 'The body: x is not a known field.', { x: ['is not a known field'] }],
      [400, 'INVALID_ARGUMENT', 'The body is not valid UTF-8 JSON.', { body: ['is not valid JSON'] }],
      [
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the body as JSON, with Content-Type: application/json (got text/plain).',
        {},
      ],
      [
        400,
        'INVALID_ARGUMENT',
        'The id in the path must be a whole number, got "abc".',
        { id: ['must be a whole number'] },
      ],
      [404, 'NOT_FOUND', 'There is no conversation 9.', {}],
      [405, 'METHOD_NOT_ALLOWED', '/_bizmsg/faults takes GET, HEAD, POST, DELETE, not PUT.', {}],
      [404, 'NOT_FOUND', 'No control route GET /_bizmsg/nowhere; GET /_bizmsg/openapi.json lists them.', {}],
      [413, 'PAYLOAD_TOO_LARGE', 'The body is larger than 1048576 bytes.', {}],
      // A JSON null is a body, not the absence of one.
      [400, 'INVALID_ARGUMENT', 'The body: body must be an object.', { body: ['must be an object'] }],
      // An id is written one way only, as the mock writes it.
      [
        400,
        'INVALID_ARGUMENT',
        'The id in the path must be a whole number, got "01".',
        { id: ['must be a whole number'] },
      ],
      [400, 'INVALID_ARGUMENT', 'The query: limit must be at least 1.', { limit: ['must be at least 1'] }],
      [400, 'INVALID_ARGUMENT', 'The query: limit must be an integer.', { limit: ['must be an integer'] }],
      [400, 'INVALID_ARGUMENT', 'The body: extra is not a known field.', { extra: ['is not a known field'] }],
      ...[1, 2, 3].map(() => [
        400,
        'INVALID_ARGUMENT',
        'The body holds a "__proto__" key, which no control call takes.',
        { body: ['must not hold a "__proto__" key'] },
      ]),
    ]);
    expect(refusals[6]!.headers.get('allow')).toBe('GET, HEAD, POST, DELETE');
    expect((await call(server, 'GET', '/state')).body).toEqual({ ...before, now: expect.any(String) });
  });

  it('name a field called like a property every object has (constructor, toString...) as unknown: a 400, not a 500', async () => {
    const server = await start();
    const before = (await call(server, 'GET', '/state')).body;
    const bodies: Array<[string, string]> = [
      ['/messages/1/status', '"status":"read"'],
      ['/faults', '"status":500'],
      ['/clock/advance', '"ms":1'],
      ['/events', '"event":"message.read"'],
      ['/inbound', '"from":"+4915112345678","body":"x"'],
    ];
    for (const key of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'])
      for (const [path, fields] of bodies) {
        const answer = await call(server, 'POST', path, {
          headers: { 'content-type': 'application/json' },
          body: `{${fields},"${key}":1}`,
        });
        expect([path, answer.status, answer.body.error.details]).toEqual([
          path,
          400,
          { [key]: ['is not a known field'] },
        ]);
      }
    expect((await call(server, 'GET', '/state')).body).toEqual({ ...before, now: expect.any(String) });
  });

  it('reach a connectMock caller as an InvalidArgumentError naming the field (400, 404, 409), or a BizMsgError', async () => {
    const server = await start();
    const control = connectMock(server.baseUrl);
    const error = await control.emit('not.a.kind' as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as { details: unknown }).details).toEqual({
      event: [expect.stringMatching(/^must be one of message\.received, /)],
    });
    await server.close();
    await expect(control.health()).rejects.toThrow(
      `Could not reach the mock's control API at ${server.origin}/_bizmsg/health: is bizmsg-mock running there?`,
    );
  });

  it('reach a connectMock caller of a server that is not a mock as a BizMsgError, never as an argument error', async () => {
    const other = await startTestServer((request, res) => {
      res.writeHead(request.path.endsWith('/state') ? 200 : 404, { 'content-type': 'text/html' });
      res.end('<html>not here</html>');
    });
    try {
      const control = connectMock(other.baseUrl);
      const refused = await control.removeWebhook(1).catch((e: unknown) => e);
      expect([refused instanceof InvalidArgumentError, (refused as Error).message]).toEqual([
        false,
        'DELETE /_bizmsg/webhooks/1 failed with 404: HTTP 404',
      ]);
      await expect(control.state()).rejects.toThrow(
        new BizMsgError(
          `GET ${other.origin}/_bizmsg/state answered 200 with a body that is not JSON: is it a bizmsg-mock?`,
        ),
      );
    } finally {
      await other.close();
    }
    expect(() => connectMock(undefined as never)).toThrow(
      new InvalidArgumentError(
        "connectMock needs the mock's URL (http://127.0.0.1:4010/api/v1) or a mock in this process, got undefined.",
      ),
    );
    expect(() => connectMock('file:///tmp/mock')).toThrow(InvalidArgumentError);
    // A key or token passed where the URL goes is never in the message.
    expect(() => connectMock('sk_test_0123456789abcdef0123456789abcdef')).toThrow(
      new InvalidArgumentError(
        "connectMock needs the mock's URL (http://127.0.0.1:4010/api/v1) or a mock in this process, got a string of 40 characters (not shown: it may be a secret, such as a key pasted in the wrong place).",
      ),
    );
  });
});

describe('answers', () => {
  it('answers HEAD on every GET route, the document included, with no body', async () => {
    const server = await start();
    for (const path of ['/health', '/state', '/requests', '/deliveries', '/faults', '/openapi.json']) {
      const response = await fetch(`${server.origin}/_bizmsg${path}`, { method: 'HEAD' });
      expect([path, response.status, response.headers.get('content-type'), await response.text()]).toEqual([
        path,
        200,
        'application/json',
        '',
      ]);
    }
  });

  it('answers a call that changes the mock without waiting for a delivery it did not start', async () => {
    const server = await start({ variant: 1, webhookTimeout: 60_000 });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const receiver = await startTestServer(async (_, res) => {
      await held;
      res.end('late');
    });
    try {
      const control = connectMock(server.baseUrl);
      await control.registerWebhook({ url: `${receiver.origin}/slow`, events: ['contact.created'], secret: 's' });
      const created = await fetch(`${server.baseUrl}/contacts/create`, {
        method: 'POST',
        headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Ada', phone: '+4915112345678' }),
      });
      expect(created.status).toBe(200);
      // The delivery is under way (its receiver holds it): a key is made, a fault injected, at once.
      await vi.waitFor(() => expect(receiver.received.length).toBe(1));
      expect(typeof (await control.createKey())).toBe('string');
      await control.inject({ status: 500, times: 1 });
      expect(await control.deliveries()).toEqual([]);
      release();
      await vi.waitFor(async () => expect((await control.deliveries()).map((d) => d.status)).toEqual([200]));
    } finally {
      release();
      await receiver.close();
    }
  });
});

describe('the control API beside the service', () => {
  it('is never journaled, faulted or rate-limited', async () => {
    const server = await start({ variant: 2, plans: { enterprise: { rateLimit: 1 } } });
    const control = connectMock(server.baseUrl);
    await control.inject({ status: 500, rate: 1 });
    for (let i = 0; i < 5; i++) expect((await control.health()).ok).toBe(true);
    const service = await fetch(`${server.baseUrl}/account/me`, {
      headers: { authorization: `Bearer ${server.apiKey}` },
    });
    expect(service.status).toBe(500);
    await control.clearFaults();
    expect((await control.requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /account/me 500']);
  });

  it('serves its own OpenAPI 3.1 document, valid, with every route', async () => {
    const server = await start();
    const { status, body } = await call(server, 'GET', '/openapi.json');
    expect(status).toBe(200);
    expect(body.servers).toEqual([{ url: server.origin }]);
    const operations = Object.entries(body.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => key !== 'parameters')
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [...CONTROL_ROUTES.map((r) => `${r.method} ${r.path}`), 'GET /_bizmsg/openapi.json'].sort(),
    );
    expect(await validate(structuredClone(body))).toEqual({ valid: true, warnings: [], specification: 'OpenAPI' });
    const attempt = (body.components as { schemas: Record<string, { properties: Record<string, unknown> }> }).schemas
      .DeliveryAttempt!.properties.attempt;
    expect(attempt).toEqual({
      type: 'integer',
      minimum: 1,
      description:
        'Numbered from 1: 1 for the first delivery, 2 to 6 for the five retries (a redelivery keeps the number of the attempt it repeats).',
    });
  });

  it('names the clock routes (stop and start answer { now }) and says what each field of a fault means', async () => {
    const server = await start();
    const { body } = await call(server, 'GET', '/openapi.json');
    const now = { type: 'object', properties: { now: { type: 'string' } }, required: ['now'] };
    for (const [path, operationId] of [
      ['/_bizmsg/clock/stop', 'stopClock'],
      ['/_bizmsg/clock/start', 'startClock'],
    ] as const)
      expect(body.paths[path].post).toMatchObject({
        operationId,
        responses: { '200': { content: { 'application/json': { schema: now } } } },
      });
    expect(body.paths['/_bizmsg/clock/stop'].post.requestBody).toBe(undefined);
    const fault = body.components.schemas.Fault as { properties: Record<string, { description?: string }> };
    expect(Object.entries(fault.properties).filter(([, field]) => field.description === undefined)).toEqual([]);
    expect(fault.properties.route!.description).toContain('"METHOD /path"');
    expect(fault.properties.delay!.description).toContain('milliseconds');
    expect(fault.properties.rate!.description).toContain('share (0 to 1)');
  });

  it('stops and starts the clock over plain HTTP: POST only, answering { now }, a GET refused with 405', async () => {
    const server = await start();
    const stopped = await call(server, 'POST', '/clock/stop');
    expect(stopped).toEqual({ status: 200, headers: expect.anything(), body: { now: expect.any(String) } });
    expect(server.mock.clock.stopped).toBe(true);
    // Stopping twice leaves it where it stands.
    expect((await call(server, 'POST', '/clock/stop')).body).toEqual(stopped.body);
    expect((await call(server, 'GET', '/clock/stop')).status).toBe(405);
    const started = await call(server, 'POST', '/clock/start');
    expect([started.status, started.body.now >= stopped.body.now, server.mock.clock.stopped]).toEqual([
      200,
      true,
      false,
    ]);
  });
});

/** The events of a Server-Sent Events stream as they arrive: `next()` resolves with the next whole one. */
function eventsOf(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    async next(): Promise<string> {
      while (!buffer.includes('\n\n')) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended; left: ${JSON.stringify(buffer)}`);
        buffer += value;
      }
      const end = buffer.indexOf('\n\n') + 2;
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end);
      return event;
    },
    cancel: () => reader.cancel(),
  };
}

describe('GET /_bizmsg/stream', () => {
  it('sends `ready`, then what the mock did as `activity` events, a burst gathered into few; it is never journaled', async () => {
    const server = await start({ seed: { contacts: [{ name: 'Ada', phone: '+4915112345678' }] } });
    const response = await fetch(`${server.origin}/_bizmsg/stream`);
    expect([response.status, response.headers.get('content-type'), response.headers.get('cache-control')]).toEqual([
      200,
      'text/event-stream',
      'no-store',
    ]);
    const events = eventsOf(response);
    expect(await events.next()).toBe('retry: 1000\n\n');
    const ready = await events.next();
    expect(ready).toMatch(/^event: ready\ndata: \{"now":"\d{4}-\d\d-\d\dT[\d:.]+Z"\}\n\n$/);
    const headers = { authorization: `Bearer ${server.apiKey}` };
    await Promise.all(Array.from({ length: 20 }, () => fetch(`${server.baseUrl}/account/me`, { headers })));
    await connectMock(server.baseUrl).receiveMessage({ from: '+4915112345678', body: 'Hi' });
    const totals = { requests: 0, deliveries: 0, changes: 0, what: [] as string[], batches: 0 };
    while (totals.requests < 20 || totals.changes < 1) {
      const event = await events.next();
      const [, name, data] = /^event: (\w+)\ndata: (.*)\n\n$/.exec(event)!;
      expect(name).toBe('activity');
      const activity = JSON.parse(data!);
      expect(Object.keys(activity)).toEqual(['requests', 'deliveries', 'changes', 'what', 'now']);
      totals.requests += activity.requests;
      totals.deliveries += activity.deliveries;
      totals.changes += activity.changes;
      totals.what.push(...activity.what);
      totals.batches += 1;
    }
    expect({ ...totals, batches: totals.batches <= 3 }).toEqual({
      requests: 20,
      deliveries: 0,
      changes: 1,
      what: ['a message came from +4915112345678'],
      batches: true,
    });
    expect((await connectMock(server.baseUrl).requests()).length).toBe(20);
    await events.cancel();
  });

  it('needs the control token where the control API does, and ends when the server closes', async () => {
    const server = await start({ controlToken: TOKEN });
    expect((await fetch(`${server.origin}/_bizmsg/stream`)).status).toBe(401);
    const response = await fetch(`${server.origin}/_bizmsg/stream`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const events = eventsOf(response);
    expect(await events.next()).toBe('retry: 1000\n\n');
    await events.next();
    await servers.pop()!.close();
    await expect(events.next()).rejects.toThrow();
  });
});
