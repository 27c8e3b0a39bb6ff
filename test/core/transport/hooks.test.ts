import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inspect } from 'node:util';
import {
  type BizMsgError,
  HookError,
  InvalidArgumentError,
  ResourceNotFoundError,
  Variant1Client,
  Variant2Client,
  type ClientOptions,
} from '../../../src/index.js';
import { json, scriptedFetch, v2Error, type Step } from '../../helpers/scripted-fetch.js';

const BASE = 'https://api.bizmsg.test/api/v1';
const KEY = 'sk_live_hooks_SECRET_123';
const ok = json(200, { data: { id: 1, phone: '4915112345678' } });
const notFound = {
  status: 404,
  code: 'RESOURCE_NOT_FOUND',
  details: {},
  headers: new Headers(),
  method: 'GET',
  path: '/contacts/9',
};

function setup(steps: Step[], options: Partial<ClientOptions> = {}) {
  const { fetch, requests } = scriptedFetch(...steps);
  return { client: new Variant2Client({ apiKey: KEY, baseUrl: BASE, fetch, ...options }), requests };
}

beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('hooks option', () => {
  it('runs beforeRequest after ours: the key is set, and a header it adds is sent', async () => {
    const seen: Array<string | null> = [];
    const { client, requests } = setup([ok], {
      hooks: {
        beforeRequest: [
          (request) => {
            seen.push(request.headers.get('authorization'));
            request.headers.set('traceparent', '00-abc-def-01');
          },
        ],
      },
    });
    await client.contacts.get(1);
    expect(seen).toEqual([`Bearer ${KEY}`]);
    expect(requests[0]!.headers.get('traceparent')).toBe('00-abc-def-01');
  });

  it('sets the Variant 1 key header before the hook runs too', async () => {
    const seen: Array<string | null> = [];
    const { fetch } = scriptedFetch(json(200, { success: true, data: {} }));
    const client = new Variant1Client({
      apiKey: KEY,
      baseUrl: BASE,
      fetch,
      hooks: { beforeRequest: [(r) => void seen.push(r.headers.get('x-api-key'))] },
    });
    await client.account.me();
    expect(seen).toEqual([KEY]);
  });

  it('tells beforeRequest each attempt, and beforeRetry the failed attempt, its error and the wait', async () => {
    const attempts: Array<[string, string, number]> = [];
    const retries: Array<[number, string, number]> = [];
    const { client, requests } = setup([v2Error(503, 'X', 'busy'), v2Error(503, 'X', 'busy'), ok], {
      hooks: {
        beforeRequest: [(_r, { method, path, attempt }) => void attempts.push([method, path, attempt])],
        beforeRetry: [({ attempt, error, delayMs }) => void retries.push([attempt, error.message, delayMs])],
      },
    });
    await client.contacts.get(1);
    expect(requests).toHaveLength(3);
    expect(attempts).toEqual([
      ['GET', '/contacts/1', 1],
      ['GET', '/contacts/1', 2],
      ['GET', '/contacts/1', 3],
    ]);
    // Math.random is 0: the backoff's lower half, 250 ms then 500 ms.
    expect(retries).toEqual([
      [1, 'GET /contacts/1 failed with 503 X: busy', 250],
      [2, 'GET /contacts/1 failed with 503 X: busy', 500],
    ]);
  });

  it('lets beforeRequest send another request in its place', async () => {
    const { client, requests } = setup([ok], {
      hooks: {
        beforeRequest: [
          (request) => new Request(request, { headers: { ...Object.fromEntries(request.headers), 'x-signed': 'yes' } }),
        ],
      },
    });
    await client.contacts.get(1);
    expect(requests[0]!.headers.get('x-signed')).toBe('yes');
    expect(requests[0]!.headers.get('authorization')).toBe(`Bearer ${KEY}`);
  });

  it('runs every beforeRequest hook in order, each on the request the one before returned', async () => {
    const seen: Array<string | null> = [];
    const { client, requests } = setup([ok], {
      hooks: {
        beforeRequest: [
          (request) => new Request(request, { headers: { ...Object.fromEntries(request.headers), 'x-step': 'one' } }),
          (request) => {
            seen.push(request.headers.get('x-step'));
            request.headers.set('x-last', 'two');
          },
        ],
      },
    });
    await client.contacts.get(1);
    expect(seen).toEqual(['one']);
    expect([requests[0]!.headers.get('x-step'), requests[0]!.headers.get('x-last')]).toEqual(['one', 'two']);
  });

  it('lets afterResponse read the body, and the client still parses it', async () => {
    const bodies: string[] = [];
    const { client } = setup([ok], {
      hooks: { afterResponse: [async (_r, response) => void bodies.push(await response.text())] },
    });
    await expect(client.contacts.get(1)).resolves.toEqual({ id: 1, phone: '4915112345678' });
    expect(bodies).toEqual(['{"data":{"id":1,"phone":"4915112345678"}}']);
  });

  it('lets afterResponse give the answer the client reads instead', async () => {
    const { client } = setup([v2Error(404, 'RESOURCE_NOT_FOUND')], {
      hooks: {
        afterResponse: [
          (_r, response) =>
            response.status === 404 ? json(200, { data: { id: 9, phone: '4915100000009' } }) : undefined,
        ],
      },
    });
    await expect(client.contacts.get(9)).resolves.toEqual({ id: 9, phone: '4915100000009' });
  });

  it('gives beforeError the typed error and the call, and rejects with the error it returns', async () => {
    const seen: Array<[string, string, string, number]> = [];
    const { client } = setup([v2Error(404, 'RESOURCE_NOT_FOUND', 'no such contact')], {
      hooks: {
        beforeError: [
          (error, { method, path, attempt }) => {
            seen.push([error.name, method, path, attempt]);
            return error;
          },
          () => new ResourceNotFoundError({ ...notFound, message: 'replaced by a hook' }),
        ],
      },
    });
    const error = await client.contacts.get(9).catch((e: unknown) => e);
    expect(seen).toEqual([['ResourceNotFoundError', 'GET', '/contacts/9', 1]]);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect((error as ResourceNotFoundError).message).toBe(
      'GET /contacts/9 failed with 404 RESOURCE_NOT_FOUND: replaced by a hook',
    );
  });

  it('runs beforeError for every way a call fails, a time-out and a refused connection too', async () => {
    const names: string[] = [];
    const hooks = { beforeError: [(error: BizMsgError) => void names.push(error.name)] };
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    await setup([refused], { hooks, maxRetries: 0 })
      .client.contacts.get(1)
      .catch(() => undefined);
    const slow = () => new Promise<Response>(() => undefined);
    await setup([slow], { hooks, timeout: 50 })
      .client.messages.sendText({ to: '4915112345678', messaging_account_id: 1, body: 'x' })
      .catch(() => undefined);
    expect(names).toEqual(['ConnectionError', 'TimeoutError']);
  });

  it('turns a beforeError hook that returns something else into a HookError', async () => {
    const { client } = setup([v2Error(404, 'RESOURCE_NOT_FOUND')], {
      hooks: { beforeError: [(() => 'not an error') as never] },
    });
    const error = (await client.contacts.get(9).catch((e: unknown) => e)) as HookError;
    expect([error.name, error.hook, error.message]).toEqual([
      'HookError',
      'beforeError',
      'A hook in the client options (beforeError) threw: it returned something other than a BizMsgError',
    ]);
  });

  it('turns a throwing beforeRequest hook into a HookError, sends nothing, and never shows the key', async () => {
    const cause = new Error(`cannot sign with ${KEY}`);
    const { client, requests } = setup([ok], {
      hooks: {
        beforeRequest: [
          () => {
            throw cause;
          },
        ],
      },
    });
    const error = (await client.messages
      .sendText({ to: '4915112345678', messaging_account_id: 1, body: 'x' })
      .catch((e: unknown) => e)) as HookError;
    expect(error).toBeInstanceOf(HookError);
    expect(error.hook).toBe('beforeRequest');
    expect(error.message).toBe(
      'A hook in the client options (beforeRequest) threw: Error: cannot sign with [REDACTED]',
    );
    // what the hook threw shows the key, so the cause is a stand-in without it
    expect((error.cause as Error).message).toBe('Error: cannot sign with [REDACTED]');
    expect(requests).toHaveLength(0);
    for (const text of [error.message, JSON.stringify(error), String(error), inspect(error, { depth: 10 })])
      expect(text).not.toContain(KEY);
  });

  it('keeps what a hook threw as the cause when it does not show the key', async () => {
    const cause = new RangeError('quota');
    const { client } = setup([ok], { hooks: { beforeRetry: [], beforeRequest: [() => Promise.reject(cause)] } });
    const error = (await client.contacts.get(1).catch((e: unknown) => e)) as HookError;
    expect(error.cause).toBe(cause);
    expect(error.message).toBe('A hook in the client options (beforeRequest) threw: RangeError: quota');
  });

  it('turns a throwing afterResponse hook into a HookError that is not retried', async () => {
    const { client, requests } = setup([ok], {
      hooks: {
        afterResponse: [
          () => {
            throw 'metrics down';
          },
        ],
      },
    });
    const error = (await client.contacts.get(1).catch((e: unknown) => e)) as HookError;
    expect(error).toBeInstanceOf(HookError);
    expect(error.hook).toBe('afterResponse');
    expect(error.message).toBe('A hook in the client options (afterResponse) threw: metrics down');
    expect(requests).toHaveLength(1);
  });

  it.each([
    [
      [],
      'The `hooks` option must be an object of beforeRequest, afterResponse, beforeRetry and beforeError arrays of functions.',
    ],
    [
      { beforeRequest: () => undefined },
      'The `hooks` option must be an object of beforeRequest, afterResponse, beforeRetry and beforeError arrays of functions; `beforeRequest` is not an array of functions.',
    ],
    [
      { onRequest: [] },
      'The `hooks` option must be an object of beforeRequest, afterResponse, beforeRetry and beforeError arrays of functions; got "onRequest".',
    ],
  ])('rejects hooks %j at construction', (hooks, message) => {
    expect(() => new Variant2Client({ apiKey: 'k', baseUrl: BASE, hooks: hooks as never })).toThrow(
      new InvalidArgumentError(message),
    );
  });
});
