import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { errorEnvelope } from '../helpers/mock-api.js';
import { chunked, exchange, RawConnection, rawRequest } from '../helpers/raw-http.js';

const servers: Record<1 | 2, MockHttpServer> = {} as never;
beforeAll(async () => {
  servers[1] = await startMockHttpServer({ variant: 1 });
  servers[2] = await startMockHttpServer({ variant: 2 });
});
afterAll(() => Promise.all([servers[1].close(), servers[2].close()]));

const portOf = (server: MockHttpServer) => Number(new URL(server.baseUrl).port);
const authOf = (variant: 1 | 2, key: string): Record<string, string> =>
  variant === 1 ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
const createPath = { 1: '/api/v1/contacts/create', 2: '/api/v1/contacts' } as const;

describe.each([1, 2] as const)('Variant %i over HTTP', (variant) => {
  const validationStatus = variant === 1 ? 400 : 422;

  it('answers TRACE, PATCH and other methods a path lacks with 404 RESOURCE_NOT_FOUND and Allow, in its own envelope', async () => {
    const server = servers[variant];
    for (const method of ['TRACE', 'PATCH', 'OPTIONS', 'PROPFIND', 'M-SEARCH']) {
      const response = await exchange(
        portOf(server),
        rawRequest(method, '/api/v1/contacts', authOf(variant, server.apiKey)),
      );
      const allowed = variant === 1 ? 'GET' : 'GET, POST';
      expect([method, response?.status, response?.headers.allow, JSON.parse(response!.body)]).toEqual([
        method,
        404,
        allowed,
        errorEnvelope(variant, {
          code: 'RESOURCE_NOT_FOUND',
          message: `No endpoint ${method} /contacts; this path has ${allowed}.`,
          details: { allowed_methods: allowed.split(', ') },
        }),
      ]);
    }
    const unauthenticated = await exchange(portOf(server), rawRequest('TRACE', '/api/v1/contacts'));
    expect([unauthenticated?.status, JSON.parse(unauthenticated!.body).error.code]).toEqual([
      401,
      'AUTHENTICATION_ERROR',
    ]);
  });

  it('answers CONNECT (which Node hands over as a tunnel request) the same way, then closes', async () => {
    const server = servers[variant];
    const connection = await RawConnection.open(portOf(server));
    connection.write(rawRequest('CONNECT', '/api/v1/contacts', authOf(variant, server.apiKey)));
    const response = await connection.response();
    expect([response?.status, response?.headers.allow, JSON.parse(response!.body).error.code]).toEqual([
      404,
      variant === 1 ? 'GET' : 'GET, POST',
      'RESOURCE_NOT_FOUND',
    ]);
    expect(await connection.closed()).toBe('end');
    const authority = await exchange(
      portOf(server),
      rawRequest('CONNECT', '127.0.0.1:443', authOf(variant, server.apiKey)),
    );
    expect([authority?.status, JSON.parse(authority!.body).error.message]).toEqual([404, 'No API at /127.0.0.1:443.']);
  });

  it(`answers requests the HTTP parser refuses with ${validationStatus} VALIDATION_ERROR in its envelope, and closes`, async () => {
    const server = servers[variant];
    const requests = [
      rawRequest('get', '/api/v1/contacts', authOf(variant, server.apiKey)),
      rawRequest('G@T', '/api/v1/contacts'),
      Buffer.from('GET /api/v1/con\rtacts HTTP/1.1\r\nhost: x\r\n\r\n'),
      Buffer.from(`GET /api/v1/contacts HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`),
      // Parsed as far as the body, whose chunk size is not hex: the route is already waiting for it.
      Buffer.concat([
        rawRequest('POST', createPath[variant], { ...authOf(variant, server.apiKey), 'transfer-encoding': 'chunked' }),
        Buffer.from('zz\r\n{}\r\n0\r\n\r\n'),
      ]),
    ];
    for (const request of requests) {
      const connection = await RawConnection.open(portOf(server));
      connection.write(request);
      const response = await connection.response();
      expect([response?.status, response?.headers.connection, JSON.parse(response!.body)]).toEqual([
        validationStatus,
        'close',
        errorEnvelope(variant, {
          code: 'VALIDATION_ERROR',
          details: {
            request: [expect.stringMatching(/^(is not valid HTTP\/1\.1 \(HPE_\w+\)|has headers over 16 KB)$/)],
          },
        }),
      ]);
      expect(await connection.closed()).toBe('end');
    }
  });

  it('gives a request answered before its body one answer only: a broken chunk after it closes the connection', async () => {
    const server = servers[variant];
    const badChunk = Buffer.from('zz\r\n{}\r\n0\r\n\r\n');
    const chunkedHead = (method: string, path: string, key: string) =>
      rawRequest(method, path, { ...authOf(variant, key), 'transfer-encoding': 'chunked' });
    // Each is answered from its head alone (a method the path lacks, a wrong key), before the body is parsed.
    for (const [head, status] of [
      [chunkedHead('POST', '/api/v1/account/me', server.apiKey), 404],
      [chunkedHead('POST', createPath[variant], 'sk_test_wrong'), 401],
    ] as const) {
      const connection = await RawConnection.open(portOf(server));
      // A pipelined request behind it, and more bytes after the answer: no answer for either, the stream is broken.
      connection.write(
        Buffer.concat([head, badChunk, rawRequest('GET', '/api/v1/account/me', authOf(variant, server.apiKey))]),
      );
      const first = await connection.response();
      expect(first?.status).toBe(status);
      connection.write(rawRequest('GET', '/api/v1/account/me', authOf(variant, server.apiKey)));
      expect(await connection.response()).toBeUndefined();
      expect(await connection.closed()).toBe('end');
    }
    expect(server.mock.store.contacts).toEqual([]);
  });

  it(`answers a request line without HTTP/1.x (HTTP/0.9 style, or a CR LF cutting the path) with ${validationStatus}, never as a request`, async () => {
    const server = servers[variant];
    const auth = Object.entries(authOf(variant, server.apiKey))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    for (const request of [
      `GET /api/v1/contacts\r\nX-Injected: yes/999999 HTTP/1.1\r\n${auth}\r\n`,
      `GET /api/v1/contacts HTTP/2.0\r\n${auth}\r\n`,
    ]) {
      const connection = await RawConnection.open(portOf(server));
      connection.write(request);
      const response = await connection.response();
      expect([response?.status, response?.headers.connection, JSON.parse(response!.body)]).toEqual([
        validationStatus,
        'close',
        errorEnvelope(variant, {
          code: 'VALIDATION_ERROR',
          details: { request: [expect.stringMatching(/^is not HTTP\/1\.0 or HTTP\/1\.1 \(HTTP\/(0\.9|2\.0)\)$/)] },
        }),
      ]);
      expect(response?.headers['x-injected']).toBeUndefined();
      expect(await connection.closed()).toBe('end');
    }
  });

  it('answers a declared body over 1 MiB with 413 at once, without reading it, and closes the connection cleanly', async () => {
    const server = servers[variant];
    const connection = await RawConnection.open(portOf(server));
    // Headers only: the answer must not wait for 2 MiB that never come.
    connection.write(
      rawRequest('POST', createPath[variant], {
        ...authOf(variant, server.apiKey),
        'content-length': String(2 * 1_048_576),
      }),
    );
    const response = await connection.response();
    expect([response?.status, response?.headers.connection, JSON.parse(response!.body).error.code]).toEqual([
      413,
      'close',
      'PAYLOAD_TOO_LARGE',
    ]);
    expect(await connection.closed()).toBe('end');
    expect(server.mock.store.contacts).toEqual([]);
  });

  it('stops reading a chunked body once it passes 1 MiB: 413 before the body ends, then a clean close', async () => {
    const server = servers[variant];
    const connection = await RawConnection.open(portOf(server));
    const body = chunked(Buffer.alloc(1_048_576 + 1024, 'a'), [65_536, 524_288]);
    // Everything but the final zero-size chunk: the body never ends unless the server stops reading.
    connection.write(
      Buffer.concat([
        rawRequest('POST', createPath[variant], { ...authOf(variant, server.apiKey), 'transfer-encoding': 'chunked' }),
        body.subarray(0, body.length - 5),
      ]),
    );
    const response = await connection.response();
    expect([response?.status, response?.headers.connection, JSON.parse(response!.body).error.code]).toEqual([
      413,
      'close',
      'PAYLOAD_TOO_LARGE',
    ]);
    expect(await connection.closed()).toBe('end');
    const next = await exchange(
      portOf(server),
      rawRequest('GET', '/api/v1/account/me', authOf(variant, server.apiKey)),
    );
    expect(next?.status).toBe(200);
  });

  it('keeps a keep-alive connection usable after rejections that read the whole body (or none of it)', async () => {
    const server = servers[variant];
    const connection = await RawConnection.open(portOf(server));
    const steps: Array<[Buffer, number]> = [
      [
        rawRequest(
          'POST',
          createPath[variant],
          authOf(variant, 'sk_test_wrong'),
          '{"name":"Ada","phone":"4915112345678"}',
        ),
        401,
      ],
      [rawRequest('POST', createPath[variant], authOf(variant, server.apiKey), '{"name":'), validationStatus],
      [
        rawRequest(
          'POST',
          createPath[variant],
          { ...authOf(variant, server.apiKey), 'transfer-encoding': 'chunked' },
          chunked(Buffer.from('{"name":"Ada","phone":"12"}'), [3, 9]),
        ),
        400,
      ],
      [rawRequest('TRACE', '/api/v1/contacts', authOf(variant, server.apiKey)), 404],
      [rawRequest('GET', '/api/v1/contacts', authOf(variant, server.apiKey)), 200],
    ];
    for (const [request, status] of steps) {
      connection.write(request);
      const response = await connection.response();
      expect([response?.status, response?.headers.connection]).toEqual([status, 'keep-alive']);
    }
    connection.destroy();
  });
});

it('serves a request target that is a full URL or starts with //, instead of failing', async () => {
  const server = servers[2];
  const absolute = await exchange(
    portOf(server),
    rawRequest('GET', `${server.baseUrl}/account/me`, authOf(2, server.apiKey)),
  );
  expect(absolute?.status).toBe(200);
  const doubleSlash = await exchange(portOf(server), rawRequest('GET', '//', authOf(2, server.apiKey)));
  expect([doubleSlash?.status, JSON.parse(doubleSlash!.body).error.code]).toEqual([404, 'RESOURCE_NOT_FOUND']);
});
