import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inspect } from 'node:util';
import {
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

  it('calls beforeRetry with the retry count before each retry, and beforeRequest on every attempt', async () => {
    const counts: number[] = [];
    const attempts: number[] = [];
    const { client, requests } = setup([v2Error(503, 'X'), v2Error(503, 'X'), ok], {
      hooks: {
        beforeRequest: [(_r, _o, { retryCount }) => void attempts.push(retryCount)],
        beforeRetry: [({ retryCount }) => void counts.push(retryCount)],
      },
    });
    await client.contacts.get(1);
    expect(requests).toHaveLength(3);
    expect(attempts).toEqual([0, 1, 2]);
    expect(counts).toEqual([1, 2]);
  });

  it('lets afterResponse read the body, and the client still parses it', async () => {
    const bodies: string[] = [];
    const { client } = setup([ok], {
      hooks: { afterResponse: [async (_r, _o, response) => void bodies.push(await response.text())] },
    });
    await expect(client.contacts.get(1)).resolves.toEqual({ id: 1, phone: '4915112345678' });
    expect(bodies).toEqual(['{"data":{"id":1,"phone":"4915112345678"}}']);
  });

  it('gives beforeError the error response, and the typed error still follows', async () => {
    const statuses: number[] = [];
    const bodies: string[] = [];
    const { client } = setup([v2Error(404, 'RESOURCE_NOT_FOUND', 'no such contact')], {
      hooks: {
        beforeError: [
          async (error) => {
            statuses.push(error.response.status);
            bodies.push(await error.response.clone().text());
            return error;
          },
        ],
      },
    });
    const error = await client.contacts.get(9).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect((error as ResourceNotFoundError).message).toBe(
      'GET /contacts/9 failed with 404 RESOURCE_NOT_FOUND: no such contact',
    );
    expect(statuses).toEqual([404]);
    expect(bodies).toEqual(['{"error":{"code":"RESOURCE_NOT_FOUND","message":"no such contact","details":{}}}']);
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
      'The `hooks` option must be an object of beforeRequest, beforeRetry, afterResponse and beforeError arrays of functions.',
    ],
    [
      { beforeRequest: () => undefined },
      'The `hooks` option must be an object of beforeRequest, beforeRetry, afterResponse and beforeError arrays of functions; `beforeRequest` is not an array of functions.',
    ],
    [
      { onRequest: [] },
      'The `hooks` option must be an object of beforeRequest, beforeRetry, afterResponse and beforeError arrays of functions; got "onRequest".',
    ],
  ])('rejects hooks %j at construction', (hooks, message) => {
    expect(() => new Variant2Client({ apiKey: 'k', baseUrl: BASE, hooks: hooks as never })).toThrow(
      new InvalidArgumentError(message),
    );
  });
});
