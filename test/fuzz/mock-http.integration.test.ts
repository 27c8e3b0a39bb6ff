// Fuzzes the mock's HTTP surface over raw loopback sockets. Every junk request must get a 4xx in
// the server's own variant envelope (never a 5xx, never a hang), with a status its code agrees
// with, no API key in the body, and no change to the state. BIZMSG_SOAK=long scales the runs up.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIFECYCLE_MS, startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { chunked, exchange, rawRequest, type WireResponse } from '../helpers/raw-http.js';
import { specStatusOf } from '../helpers/spec-codes.js';

const LONG = process.env.BIZMSG_SOAK === 'long';
/** Runs per property: the default keeps the whole file to seconds; a long soak multiplies them. */
const runs = (n: number) => (LONG ? n * 20 : n);
/** Wall-clock bound per property, so a slow machine shortens a run instead of failing it. */
const TIME_LIMIT_MS = LONG ? 120_000 : 8_000;
const TEST_TIMEOUT_MS = TIME_LIMIT_MS + 30_000;
const MAX_BYTES = 1_048_576;

type Variant = 1 | 2;
const counts: Record<string, number> = {};
const count = (name: string) => (counts[name] = (counts[name] ?? 0) + 1);
const failed: string[] = [];

/** A running server per variant, with some state, a second key, and no rate limit in the way. */
interface Target {
  variant: Variant;
  server: MockHttpServer;
  port: number;
  otherKey: string;
  auth: (key?: string) => Record<string, string>;
  /** What a client can read of the state before any junk was sent. */
  state: string;
}
const targets = {} as Record<Variant, Target>;

async function startTarget(variant: Variant): Promise<Target> {
  const plans: Record<string, { rateLimit: number }> = {
    [variant === 1 ? 'pro' : 'enterprise']: { rateLimit: 1_000_000_000 },
  };
  const server = await startMockHttpServer({
    variant,
    plans,
    seed: {
      contacts: [
        { name: 'Ada', phone: '+4915112345678', tags: ['vip'], custom_fields: { tier: 'gold' } },
        { name: 'Bob', phone: '4915100000002' },
      ],
    },
  });
  const port = Number(new URL(server.baseUrl).port);
  const auth = (key = server.apiKey): Record<string, string> =>
    variant === 1 ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
  const send =
    variant === 1
      ? { to: '4915112345678', message: 'Hi' }
      : { to: '4915112345678', messaging_account_id: 1, type: 'text', content: { body: 'Hi' } };
  const sent = await exchange(
    port,
    rawRequest(
      'POST',
      '/api/v1/messages/send',
      { ...auth(), 'content-type': 'application/json' },
      JSON.stringify(send),
    ),
  );
  expect(sent?.status).toBe(200);
  // Past the message lifecycle, so that nothing changes on its own while the fuzz runs.
  await server.mock.clock.advance(LIFECYCLE_MS.read);
  const target: Target = {
    variant,
    server,
    port,
    otherKey: server.mock.createKey({ scopes: ['account:read'] }),
    auth,
    state: '',
  };
  target.state = await readState(target);
  return target;
}

/** Every read endpoint's answer, and the store behind them. */
async function readState({ variant, port, auth, server }: Target): Promise<string> {
  const paths =
    variant === 1
      ? ['/contacts?per_page=100', '/contacts/1', '/contacts/2', '/messages/msg_1/status']
      : [
          '/contacts?per_page=100',
          '/contacts/1',
          '/contacts/2',
          '/conversations',
          '/conversations/1',
          '/campaigns',
          '/webhooks',
        ];
  const answers: unknown[] = [];
  for (const path of paths) {
    const response = await exchange(port, rawRequest('GET', `/api/v1${path}`, auth()));
    expect([path, response?.status]).toEqual([path, 200]);
    answers.push(JSON.parse(response!.body));
  }
  const { contacts, messages, conversations, campaigns, webhookEndpoints, deliveries, emails } = server.mock.store;
  return JSON.stringify({
    answers,
    store: {
      contacts,
      messages: [...messages.values()],
      conversations,
      campaigns,
      webhookEndpoints,
      deliveries,
      emails,
    },
  });
}

/** The invariants of an answer to junk. */
function expectRejected(target: Target, response: WireResponse | undefined, label: string): void {
  expect(response, `${label}: no answer`).toBeDefined();
  const { status, headers, body } = response!;
  expect(status, `${label}: ${body}`).toBeGreaterThanOrEqual(400);
  expect(status, `${label}: ${body}`).toBeLessThan(500);
  const parsed = JSON.parse(body);
  const error = target.variant === 1 ? parsed.success === false && parsed.error : parsed.error;
  expect(Object.keys(parsed).sort(), label).toEqual(target.variant === 1 ? ['error', 'success'] : ['error']);
  expect([typeof error.code, typeof error.message, typeof error.details, Object.keys(error).sort()], label).toEqual([
    'string',
    'string',
    'object',
    ['code', 'details', 'message'],
  ]);
  expect([error.code, status], label).toEqual([error.code, specStatusOf(target.variant, error.code)]);
  expect(headers['content-type'], label).toBe('application/json');
  for (const key of [target.server.apiKey, target.otherKey])
    expect(body.includes(key), `${label}: key in body`).toBe(false);
  expect(
    Object.keys(headers).filter((name) => name.startsWith('x-injected')),
    label,
  ).toEqual([]);
}

/** Runs a property against `target`, counting its runs, then checks the server is healthy and the state unchanged. */
async function fuzz<T>(
  target: Target,
  name: string,
  numRuns: number,
  arbitrary: fc.Arbitrary<T>,
  send: (value: T) => Promise<void>,
): Promise<void> {
  const label = `${name} V${target.variant}`;
  try {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (value) => {
        count(label);
        await send(value);
      }),
      { numRuns: runs(numRuns), interruptAfterTimeLimit: TIME_LIMIT_MS },
    );
    const health = await exchange(target.port, rawRequest('GET', '/api/v1/account/me', target.auth()));
    expect(health?.status).toBe(200);
    expect(await readState(target)).toBe(target.state);
  } catch (error) {
    failed.push(label);
    throw error;
  }
}

/** Write routes, with a field every valid body has as a string, so a wrong type there is always junk. */
const writeRoutes: Record<Variant, Array<{ method: string; path: string; stringField: string }>> = {
  1: [
    { method: 'POST', path: '/api/v1/contacts/create', stringField: 'phone' },
    { method: 'PUT', path: '/api/v1/contacts/1', stringField: 'phone' },
    { method: 'POST', path: '/api/v1/messages/send', stringField: 'to' },
    { method: 'POST', path: '/api/v1/messages/template', stringField: 'to' },
    { method: 'POST', path: '/api/v1/automations/trigger', stringField: 'automation_id' },
  ],
  2: [
    { method: 'POST', path: '/api/v1/contacts', stringField: 'phone' },
    { method: 'PUT', path: '/api/v1/contacts/1', stringField: 'phone' },
    { method: 'POST', path: '/api/v1/messages/send', stringField: 'to' },
    { method: 'POST', path: '/api/v1/campaigns', stringField: 'scheduled_at' },
    { method: 'POST', path: '/api/v1/webhooks', stringField: 'url' },
  ],
};

/** JSON bodies that no route accepts: malformed, not an object, or with a required string of another type. */
const junkJson = (stringField: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.json().map((json) => `${json}}`),
    fc.string().filter((text) => !isJsonObject(text)),
    fc.json().filter((json) => !isJsonObject(json)),
    fc
      .tuple(
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 }),
        fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string()), fc.object()),
      )
      .map(([fields, wrong]) => JSON.stringify({ ...fields, [stringField]: wrong })),
  );

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Ids made of traversal pieces; never a lone `.` (which would just be the collection's own path). */
const traversalId = fc
  .array(
    fc.constantFrom(
      '..',
      '%2e%2e',
      '%2E%2E',
      '.%2e',
      '%2e.',
      '%2f',
      '%2F',
      '%5c',
      '%252e%252e',
      '%00',
      '..;',
      '%',
      '%zz',
      '%C0%AE',
      '%c0%af',
      '~',
      'etc',
      'passwd',
      '%3b',
      '%0d%0a',
      'msg_1',
      '1',
    ),
    { minLength: 1, maxLength: 5 },
  )
  .map((pieces) => pieces.join(''))
  .filter((id) => !['1', 'msg_1', '.', '%2e', '%2E'].includes(id));

const token = fc.stringMatching(/^[A-Z][A-Z-]{0,11}$/);

describe.each([1, 2] as const)('Variant %i: junk over raw sockets', (variant) => {
  beforeAll(async () => {
    targets[variant] = await startTarget(variant);
  }, TEST_TIMEOUT_MS);
  afterAll(() => targets[variant]?.server.close());

  it('junk JSON bodies on every write route', { timeout: TEST_TIMEOUT_MS }, async () => {
    const target = targets[variant];
    const body = fc
      .constantFrom(...writeRoutes[variant])
      .chain((route) => fc.tuple(fc.constant(route), junkJson(route.stringField)));
    await fuzz(target, 'junk JSON', 150, body, async ([route, text]) => {
      const response = await exchange(
        target.port,
        rawRequest(route.method, route.path, { ...target.auth(), 'content-type': 'application/json' }, text),
      );
      expectRejected(target, response, `${route.method} ${route.path} ${text.slice(0, 80)}`);
    });
  });

  it('nesting deeper than 32 levels anywhere in a body', { timeout: TEST_TIMEOUT_MS }, async () => {
    const target = targets[variant];
    const arbitrary = fc.tuple(
      fc.constantFrom(...writeRoutes[variant]),
      fc.integer({ min: 33, max: 20_000 }),
      fc.constantFrom('[', '{"k":', '[{"k":'),
      fc.string({ maxLength: 8 }),
    );
    await fuzz(target, 'deep nesting', 60, arbitrary, async ([route, levels, opener, field]) => {
      const text = `{"name":"Ada",${JSON.stringify(field)}:${opener.repeat(levels)}`;
      const response = await exchange(
        target.port,
        rawRequest(route.method, route.path, { ...target.auth(), 'content-type': 'application/json' }, text),
      );
      expectRejected(target, response, `${route.path} ${levels} x ${opener}`);
      expect(JSON.parse(response!.body).error.details).toEqual({ [field]: ['is nested deeper than 32 levels'] });
    });
  });

  it('bodies over 1 MiB, declared or chunked, sent whole or in part', { timeout: TEST_TIMEOUT_MS }, async () => {
    const target = targets[variant];
    const arbitrary = fc.tuple(
      fc.constantFrom(...writeRoutes[variant]),
      fc.integer({ min: MAX_BYTES + 1, max: 3 * MAX_BYTES }),
      fc.constantFrom('declared', 'chunked'),
      fc.boolean(),
    );
    await fuzz(target, 'huge bodies', 8, arbitrary, async ([route, size, framing, whole]) => {
      const body = Buffer.alloc(whole ? size : MAX_BYTES + 1, 'x');
      const request =
        framing === 'declared'
          ? Buffer.concat([
              rawRequest(route.method, route.path, { ...target.auth(), 'content-length': String(size) }),
              body,
            ])
          : Buffer.concat([
              rawRequest(route.method, route.path, { ...target.auth(), 'transfer-encoding': 'chunked' }),
              whole ? chunked(body, [65_536]) : chunked(body, [65_536]).subarray(0, -5),
            ]);
      const response = await exchange(target.port, request);
      expectRejected(target, response, `${route.path} ${size} ${framing}`);
      expect([response!.status, response!.headers.connection]).toEqual([413, 'close']);
    });
  });

  it('odd methods: unknown, lowercase, garbage tokens', { timeout: TEST_TIMEOUT_MS }, async () => {
    const target = targets[variant];
    // Only methods the API lacks: a real GET of a real path is not junk; HEAD answers carry no body.
    const method = fc
      .oneof(
        fc.constantFrom(
          'TRACE',
          'CONNECT',
          'PATCH',
          'OPTIONS',
          'PROPFIND',
          'M-SEARCH',
          'PURGE',
          'LINK',
          'UNLOCK',
          'SEARCH',
        ),
        fc.constantFrom('get', 'post', 'put', 'delete', 'Get', 'pOST'),
        token,
        fc.string({ minLength: 1, maxLength: 10 }).filter((text) => !/\s/.test(text)),
      )
      .filter((verb) => !['GET', 'POST', 'PUT', 'DELETE', 'HEAD'].includes(verb));
    const path = fc.constantFrom(
      '/api/v1/contacts',
      '/api/v1/contacts/1',
      '/api/v1/messages/send',
      '/api/v1/account/me',
      '/api/v1/nope',
      '/',
      '*',
    );
    await fuzz(
      target,
      'odd methods',
      150,
      fc.tuple(method, path, fc.boolean()),
      async ([verb, requestTarget, withKey]) => {
        const response = await exchange(target.port, rawRequest(verb, requestTarget, withKey ? target.auth() : {}));
        expectRejected(target, response, `${verb} ${requestTarget}`);
      },
    );
  });

  it('CR and LF injected into paths and headers', { timeout: TEST_TIMEOUT_MS }, async () => {
    const target = targets[variant];
    const breakChar = fc.constantFrom('\r\n', '\r', '\n', '%0d%0a', '%0D%0A', '\r\n ', '%0a');
    const injection = fc.tuple(breakChar, fc.constantFrom('X-Injected: yes', 'Set-Cookie: a=b', 'HTTP/1.1 200 OK', ''));
    const arbitrary = fc.tuple(fc.constantFrom('path', 'header value', 'header name'), injection, fc.nat({ max: 20 }));
    await fuzz(target, 'CR/LF injection', 100, arbitrary, async ([where, [linebreak, payload], at]) => {
      // A path that is a 404 for any authenticated request, however the injection is read.
      const path = '/api/v1/contacts/999999';
      const injected = `${linebreak}${payload}`;
      const request =
        where === 'path'
          ? rawRequest('GET', `${path.slice(0, at + 5)}${injected}${path.slice(at + 5)}`, target.auth())
          : where === 'header value'
            ? rawRequest('GET', path, { ...target.auth(), 'x-note': `a${injected}b` })
            : rawRequest('GET', path, { ...target.auth(), [`x-n${injected}ote`]: 'a' });
      const response = await exchange(target.port, request);
      expectRejected(target, response, JSON.stringify(request.toString('latin1').slice(0, 120)));
      expect(response!.headers['set-cookie']).toBeUndefined();
    });
  });

  it('bytes that are not UTF-8 in bodies, paths and keys', { timeout: TEST_TIMEOUT_MS }, async () => {
    const target = targets[variant];
    const badBytes = fc.constantFrom(
      [0xff],
      [0xc3, 0x28],
      [0xe2, 0x28, 0xa1],
      [0xf0, 0x28, 0x8c, 0x28],
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0x80],
    );
    const create = writeRoutes[variant][0]!;
    await fuzz(
      target,
      'bad UTF-8',
      80,
      fc.tuple(fc.constantFrom('body', 'path', 'key'), badBytes),
      async ([where, bytes]) => {
        const bad = Buffer.from(bytes);
        let request: Buffer;
        if (where === 'body') {
          const body = Buffer.concat([
            Buffer.from('{"name":"A'),
            bad,
            Buffer.from('da","phone":"4915112345679","to":"4915112345679","message":"x"}'),
          ]);
          request = rawRequest(
            create.method,
            create.path,
            { ...target.auth(), 'content-type': 'application/json' },
            body,
          );
        } else if (where === 'path') {
          request = Buffer.concat([
            Buffer.from('GET /api/v1/contacts/'),
            bad,
            Buffer.from(
              ` HTTP/1.1\r\nhost: x\r\n${Object.entries(target.auth())
                .map(([n, v]) => `${n}: ${v}\r\n`)
                .join('')}\r\n`,
            ),
          ]);
        } else {
          const [name, value] = Object.entries(target.auth())[0]!;
          request = Buffer.concat([
            Buffer.from(`GET /api/v1/contacts HTTP/1.1\r\nhost: x\r\n${name}: ${value}`),
            bad,
            Buffer.from('\r\n\r\n'),
          ]);
        }
        expectRejected(target, await exchange(target.port, request), `${where} ${bad.toString('hex')}`);
      },
    );
  });

  it('path traversal in ids', { timeout: TEST_TIMEOUT_MS }, async () => {
    const target = targets[variant];
    const routes =
      variant === 1
        ? [
            ['GET', '/api/v1/contacts/{id}'],
            ['PUT', '/api/v1/contacts/{id}'],
            ['GET', '/api/v1/messages/{id}/status'],
          ]
        : [
            ['GET', '/api/v1/contacts/{id}'],
            ['PUT', '/api/v1/contacts/{id}'],
            ['DELETE', '/api/v1/contacts/{id}'],
            ['GET', '/api/v1/conversations/{id}'],
          ];
    await fuzz(
      target,
      'path traversal',
      150,
      fc.tuple(fc.constantFrom(...routes), traversalId, fc.boolean()),
      async ([[method, template], traversal, withKey]) => {
        // An id carrying a key must not come back in the 404's message.
        const id = withKey ? `${traversal}${target.otherKey}` : traversal;
        const path = template!.replace('{id}', id);
        // A valid update body: only the id may make this fail, and it must.
        const body = method === 'PUT' ? '{"name":"Mallory"}' : undefined;
        const response = await exchange(
          target.port,
          rawRequest(
            method!,
            path,
            { ...target.auth(), ...(body ? { 'content-type': 'application/json' } : {}) },
            body,
          ),
        );
        expectRejected(target, response, `${method} ${path}`);
      },
    );
  });

  it(
    'chunked bodies: junk split anywhere, and chunk framing that is not HTTP',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const target = targets[variant];
      const junkBody = fc.constantFrom(...writeRoutes[variant]).chain((route) =>
        fc.tuple(
          fc.constant(route),
          junkJson(route.stringField).map((text) => Buffer.from(text)),
          fc.array(fc.nat(), { maxLength: 4 }),
        ),
      );
      const badFraming = fc.constantFrom(
        'zz\r\nab\r\n0\r\n\r\n',
        '-1\r\nab\r\n0\r\n\r\n',
        '2\r\nabc\r\n0\r\n\r\n',
        '2;\x01\r\nab\r\n0\r\n\r\n',
        '2 \r\nab\r\n0\r\n\r\n',
        '0x2\r\nab\r\n0\r\n\r\n',
      );
      const arbitrary = fc.oneof(
        junkBody.map((value) => ({ kind: 'junk' as const, value })),
        badFraming.map((framing) => ({ kind: 'framing' as const, framing })),
      );
      await fuzz(target, 'chunked', 80, arbitrary, async (sample) => {
        const route = sample.kind === 'junk' ? sample.value[0] : writeRoutes[variant][0]!;
        const body = sample.kind === 'junk' ? chunked(sample.value[1], sample.value[2]) : Buffer.from(sample.framing);
        const request = Buffer.concat([
          rawRequest(route.method, route.path, { ...target.auth(), 'transfer-encoding': 'chunked' }),
          body,
        ]);
        expectRejected(
          target,
          await exchange(target.port, request),
          `${route.path} ${JSON.stringify(body.toString('latin1').slice(0, 80))}`,
        );
      });
    },
  );
});

afterAll(() => {
  const runsPerProperty = Object.entries(counts)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const verdict =
    failed.length === 0 ? `all ${Object.keys(counts).length} properties held` : `FAILED: ${failed.join(', ')}`;
  console.log(
    `mock HTTP fuzz${LONG ? ' (BIZMSG_SOAK=long)' : ''}: ${total} junk requests, ${verdict}; runs per property: ${runsPerProperty}`,
  );
});
