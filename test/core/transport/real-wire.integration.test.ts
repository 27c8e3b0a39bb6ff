import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  ResourceNotFoundError,
  Variant1Client,
  Variant2Client,
  type ClientOptions,
  type Logger,
  type WaitEvent,
} from '../../../src/index.js';
import { startMockProxy, type MockProxy } from '../../../src/mock/index.js';
import { sendJson, startTestServer, type TestServer } from '../../helpers/http-server.js';

// The attempt loop against a service that answers as real ones do where the spec is silent: the
// rate-limit headers on every answer (the mock's defaults hide a stall behind them), redirects to
// another origin, short test keys, customers' numbers in error messages. Each case failed before
// the loop of issue 39: a 5xx waited out the window's reset, a redirect was followed with the key,
// a one-letter key garbled the error, the default log quoted the customer.

const KEY = 'sk_live_real_wire_0123456789';
let service: TestServer;
/** A second origin: whatever reaches it, a redirect was followed. */
let elsewhere: TestServer;

beforeAll(async () => {
  [service, elsewhere] = await Promise.all([startTestServer(), startTestServer()]);
});
afterAll(async () => {
  await Promise.all([service.close(), elsewhere.close()]);
});
beforeEach(() => {
  service.received.length = 0;
  elsewhere.received.length = 0;
  elsewhere.handle((_, res) => sendJson(res, 200, { data: { id: 1, phone: '4915112345678' } }));
});

/** The rate-limit headers the spec puts on every answer: plenty left, the window resetting a minute from now. */
function window(remaining = 99): Record<string, string> {
  return {
    'x-ratelimit-limit': '100',
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 60),
  };
}

/** Answers `steps` in turn (the last one again), each with the window's headers. */
function answer(...steps: Array<[status: number, body: unknown, headers?: Record<string, string>]>) {
  let next = 0;
  service.handle((_, res) => {
    const [status, body, headers = {}] = steps[Math.min(next++, steps.length - 1)]!;
    sendJson(res, status, body, { ...window(), ...headers });
  });
}

const contact = { data: { id: 1, phone: '4915112345678', name: 'Ada' } };
const busy = { error: { code: 'INTERNAL_ERROR', message: 'busy', details: {} } };

function v2(options: Partial<ClientOptions> = {}) {
  const waits: WaitEvent[] = [];
  const client = new Variant2Client({
    apiKey: KEY,
    baseUrl: service.baseUrl,
    logLevel: 'off',
    onWait: (wait) => void waits.push(wait),
    ...options,
  });
  return { client, waits };
}

describe('retries of a 5xx, a time-out, a refused connection', () => {
  it.each(['GET', 'PUT', 'DELETE'] as const)(
    'a %s answered 503 twice waits the backoff (at most 0.5 s, then 1 s), never the window reset 60 s away',
    async (method) => {
      answer([503, busy], [503, busy], [200, method === 'DELETE' ? { data: { deleted: true } } : contact]);
      const { client, waits } = v2();
      const started = Date.now();
      const calls = {
        GET: () => client.contacts.get(1),
        PUT: () => client.contacts.update(1, { name: 'Ada' }),
        DELETE: () => client.contacts.delete(1),
      };
      await calls[method]();
      expect(waits.map(({ reason, status, attempt }) => [reason, status, attempt])).toEqual([
        ['retry', 503, 2],
        ['retry', 503, 3],
      ]);
      expect(waits[0]!.ms).toBeLessThanOrEqual(500);
      expect(waits[1]!.ms).toBeLessThanOrEqual(1000);
      // On a loaded machine the three answers take a little longer; the window's reset is 60 s away.
      expect(Date.now() - started).toBeLessThan(20_000);
    },
  );

  it("waits a 5xx's own Retry-After, at most maxRetryWait", async () => {
    answer([503, busy, { 'retry-after': '2' }], [200, contact]);
    const first = v2();
    await first.client.contacts.get(1);
    expect(first.waits.map((wait) => wait.ms)).toEqual([2000]);
    answer([503, busy, { 'retry-after': '30' }], [200, contact]);
    const capped = v2({ maxRetryWait: 300 });
    await capped.client.contacts.get(1);
    expect(capped.waits.map((wait) => wait.ms)).toEqual([300]);
  });

  it("waits a 429's Retry-After, else until its own reset; it is not processed, so a POST is retried", async () => {
    answer(
      [429, { error: { code: 'RATE_LIMIT_EXCEEDED', message: 'slow down' } }, { 'retry-after': '1' }],
      [
        201,
        {
          data: { id: 'msg_1', status: 'queued' },
        },
      ],
    );
    const { client, waits } = v2();
    await client.messages.sendText({ to: '4915112345678', messaging_account_id: 1, body: 'hi' });
    expect(waits.map(({ reason, ms, status, method, path }) => [reason, ms, status, method, path])).toEqual([
      ['retry', 1000, 429, 'POST', '/messages/send'],
    ]);
  });

  it('answers a 501 to a POST as not processed, and does not retry it', async () => {
    answer([501, { error: { code: 'NOT_IMPLEMENTED', message: 'no' } }]);
    const { client, waits } = v2();
    const error = (await client.messages
      .sendText({ to: '4915112345678', messaging_account_id: 1, body: 'hi' })
      .catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.code, error.mayHaveBeenProcessed, waits.length]).toEqual([
      501,
      'NOT_IMPLEMENTED',
      false,
      0,
    ]);
    expect(error.message).not.toContain('may have been processed');
    expect(service.received).toHaveLength(1);
  });

  it('holds a request made while none is left until the reset, and says so to onWait', async () => {
    const reset = Math.floor(Date.now() / 1000) + 1;
    service.handle((_, res) =>
      sendJson(res, 200, contact, {
        'x-ratelimit-limit': '1',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(reset),
      }),
    );
    const { client, waits } = v2();
    await client.contacts.get(1);
    await client.contacts.get(1);
    expect(waits.map(({ reason, attempt, method }) => [reason, attempt, method])).toEqual([['pacing', 1, 'GET']]);
    expect(waits[0]!.ms).toBeGreaterThan(0);
    expect(waits[0]!.ms).toBeLessThanOrEqual(1000);
  });

  it('logs, and does not fail the call, when onWait throws', async () => {
    answer([503, busy], [200, contact]);
    const lines: string[] = [];
    const logger: Logger = { debug() {}, info() {}, warn() {}, error: (line) => void lines.push(line) };
    const client = new Variant2Client({
      apiKey: KEY,
      baseUrl: service.baseUrl,
      logger,
      onWait: () => {
        throw new Error(`cannot draw the bar ${KEY}`);
      },
    });
    await expect(client.contacts.get(1)).resolves.toMatchObject({ id: 1 });
    expect(lines).toEqual(['bizmsg: onWait threw: Error: cannot draw the bar [REDACTED]']);
  });
});

describe('redirects, never followed', () => {
  /** The service answers every request with `status` to the second origin, a token in the Location. */
  function redirect(status: number) {
    service.handle((_, res) => {
      res.writeHead(status, { location: `${elsewhere.origin}/api/v1/contacts/1?token=secret_token_123`, ...window() });
      res.end();
    });
  }

  const clients = {
    'Variant 1': (options: Partial<ClientOptions> = {}) =>
      new Variant1Client({ apiKey: KEY, baseUrl: service.baseUrl, logLevel: 'off', ...options }),
    'Variant 2': (options: Partial<ClientOptions> = {}) =>
      new Variant2Client({ apiKey: KEY, baseUrl: service.baseUrl, logLevel: 'off', ...options }),
  };

  describe.each(Object.keys(clients) as Array<keyof typeof clients>)('%s', (variant) => {
    const make = clients[variant];
    const ways: Record<string, Partial<ClientOptions>> = {
      'by default': {},
      'with a custom fetch': { fetch: (input, init) => globalThis.fetch(input, init) },
      'with hooks': {
        hooks: {
          beforeRequest: [(request) => void request.headers.set('x-trace', '1')],
          afterResponse: [() => undefined],
        },
      },
    };

    it.each([301, 302, 303, 307, 308])(
      'answers a %i as ApiError HTTP_3xx naming the origin only, and sends nothing there',
      async (status) => {
        redirect(status);
        for (const [way, options] of Object.entries(ways)) {
          const error = (await make(options)
            .account.me()
            .catch((e: unknown) => e)) as ApiError;
          expect(error, way).toBeInstanceOf(ApiError);
          expect([error.status, error.code, error.headers.get('location')], way).toEqual([
            status,
            `HTTP_${status}`,
            elsewhere.origin,
          ]);
          expect(error.message, way).toBe(
            `GET /account/me failed with ${status} HTTP_${status}: the service answered with a redirect to ${elsewhere.origin}, ` +
              'which bizmsg does not follow (the request and its API key would go there); check `baseUrl`',
          );
          expect(JSON.stringify(error) + inspect(error), way).not.toContain('secret_token_123');
        }
        expect(elsewhere.received).toEqual([]);
        expect(service.received).toHaveLength(Object.keys(ways).length);
      },
    );
  });

  it('is not followed through the bizmsg-mock proxy either: the proxy passes the 3xx back', async () => {
    redirect(307);
    const proxy: MockProxy = await startMockProxy({ target: service.baseUrl, variant: 2 });
    try {
      const client = new Variant2Client({ apiKey: KEY, baseUrl: proxy.baseUrl, logLevel: 'off' });
      const error = (await client.contacts
        .create({ name: 'Ada', phone: '+4915112345678' })
        .catch((e: unknown) => e)) as ApiError;
      expect([error.status, error.code, error.mayHaveBeenProcessed]).toEqual([307, 'HTTP_307', true]);
      expect(elsewhere.received).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});

describe('short keys, as test suites use them', () => {
  const envelope = {
    error: { code: 'RESOURCE_NOT_FOUND', message: 'Contact 42 does not exist.', details: { contact_id: 42 } },
  };

  it.each(['e', 'er', 'err', 'test', 'a', '4', 'id', 'data'])(
    'with the key %j, an error keeps its code, class and words; the key is removed only where it stands whole',
    async (key) => {
      answer([404, envelope]);
      const client = new Variant2Client({ apiKey: key, baseUrl: service.baseUrl, logLevel: 'off' });
      const error = (await client.contacts.get(42).catch((e: unknown) => e)) as ResourceNotFoundError;
      expect(error).toBeInstanceOf(ResourceNotFoundError);
      expect([error.code, error.message, error.details]).toEqual([
        'RESOURCE_NOT_FOUND',
        'GET /contacts/42 failed with 404 RESOURCE_NOT_FOUND: Contact 42 does not exist.',
        { contact_id: 42 },
      ]);
      answer([401, { error: { code: 'AUTHENTICATION_ERROR', message: `The key ${key} is not valid.`, details: {} } }]);
      const refused = (await client.contacts.get(42).catch((e: unknown) => e)) as ApiError;
      expect([refused.code, refused.message]).toEqual([
        'AUTHENTICATION_ERROR',
        'GET /contacts/42 failed with 401 AUTHENTICATION_ERROR: The key [REDACTED] is not valid.',
      ]);
    },
  );

  it('still removes a real key wherever it stands whole: in a message, a detail, a header, an HTML page', async () => {
    answer([
      403,
      { error: { code: 'KEY_REVOKED', message: `key=${KEY};`, details: { key: KEY, [KEY]: 'x' } } },
      { 'x-echo': `Bearer ${KEY}` },
    ]);
    const error = (await v2()
      .client.contacts.get(1)
      .catch((e: unknown) => e)) as ApiError;
    expect([error.code, error.message, error.details, error.headers.get('x-echo')]).toEqual([
      'KEY_REVOKED',
      'GET /contacts/1 failed with 403 KEY_REVOKED: key=[REDACTED];',
      { key: '[REDACTED]', '[REDACTED]': 'x' },
      'Bearer [REDACTED]',
    ]);
    service.handle((_, res) => {
      res.writeHead(502, { 'content-type': 'text/html', ...window() });
      res.end(`<html><body>Bad gateway for ${KEY}</body></html>`);
    });
    const page = (await v2({ maxRetries: 0 })
      .client.contacts.get(1)
      .catch((e: unknown) => e)) as ApiError;
    expect(page.message).toContain('Bad gateway for [REDACTED]');
    expect(JSON.stringify(page) + inspect(page)).not.toContain(KEY);
  });
});

describe('the default log', () => {
  function captured() {
    const lines: string[] = [];
    const logger: Logger = {
      debug: (line) => void lines.push(`debug ${line}`),
      info: (line) => void lines.push(`info ${line}`),
      warn: (line) => void lines.push(`warn ${line}`),
      error: (line) => void lines.push(`error ${line}`),
    };
    return { lines, logger };
  }

  it("masks a customer's number and e-mail address quoted by the service; the error keeps them for the caller", async () => {
    const message =
      'The phone number +4917612340502 is not a valid WhatsApp number; write to ada.lovelace@example.com.';
    answer([422, { error: { code: 'INVALID_PHONE', message, details: {} } }]);
    const { lines, logger } = captured();
    const client = new Variant2Client({ apiKey: KEY, baseUrl: service.baseUrl, logger });
    const error = (await client.messages
      .sendText({ to: '+4917612340502', messaging_account_id: 1, body: 'hi' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toContain(message);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^error bizmsg: POST \/messages\/send -> 422 in \d+ ms \(attempt 1\); failed: InvalidPhoneError: POST \/messages\/send failed with 422 INVALID_PHONE: The phone number \+49•••••502 is not a valid WhatsApp number; write to a•••@example\.com\.$/,
    );
    expect(lines.join('\n')).not.toMatch(/4917612340502|ada\.lovelace/);
  });

  it('warns once per operation and path of a value left out; an absent guessed field or an unknown one is info', async () => {
    const drifted = { data: { id: 1, name: 'Ada', phone: '4915112345678', tags: 'vip', vip: true } };
    answer([200, drifted]);
    const { lines, logger } = captured();
    const client = new Variant2Client({ apiKey: KEY, baseUrl: service.baseUrl, logger });
    await client.contacts.get(1);
    await client.contacts.get(2);
    expect(lines).toEqual([
      'warn bizmsg: the service differs from what bizmsg expects in GET /contacts/{id}: data.tags is a string, not an array; read in the expected type where nothing is lost, else left out of the result.',
    ]);
    const verbose = captured();
    await new Variant2Client({
      apiKey: KEY,
      baseUrl: service.baseUrl,
      logger: verbose.logger,
      logLevel: 'info',
    }).contacts.get(1);
    expect(verbose.lines.filter((line) => line.includes('differs'))).toEqual([
      'info bizmsg: the service differs from what bizmsg expects in GET /contacts/{id}: data.created_at is missing; read on without it.',
      'info bizmsg: the service differs from what bizmsg expects in GET /contacts/{id}: data.updated_at is missing; read on without it.',
      'warn bizmsg: the service differs from what bizmsg expects in GET /contacts/{id}: data.tags is a string, not an array; read in the expected type where nothing is lost, else left out of the result.',
      'info bizmsg: the service differs from what bizmsg expects in GET /contacts/{id}: data.vip is a field bizmsg does not know; kept.',
    ]);
  });
});
