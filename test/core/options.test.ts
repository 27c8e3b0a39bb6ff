import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError, Variant1Client, Variant2Client, type ClientOptions } from '../../src/index.js';
import { json, scriptedFetch } from '../helpers/scripted-fetch.js';

const BASE = 'https://api.bizmsg.test/api/v1';

function constructionError(options: unknown): Error {
  try {
    new Variant2Client(options as ClientOptions);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the constructor to throw');
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('client options', () => {
  it('falls back to BIZMSG_API_KEY and BIZMSG_BASE_URL', async () => {
    vi.stubEnv('BIZMSG_API_KEY', 'sk_env');
    vi.stubEnv('BIZMSG_BASE_URL', 'https://env.bizmsg.test/api/v1/');
    const { fetch, requests } = scriptedFetch(json(200, { success: true, data: {} }));
    const client = new Variant1Client({ fetch });
    expect(client.baseUrl).toBe('https://env.bizmsg.test/api/v1');
    await client.account.me();
    expect(requests[0]!.url).toBe('https://env.bizmsg.test/api/v1/account/me');
    expect(requests[0]!.headers.get('x-api-key')).toBe('sk_env');
  });

  it('prefers explicit options over the environment', () => {
    vi.stubEnv('BIZMSG_BASE_URL', 'https://env.bizmsg.test/api/v1');
    expect(new Variant2Client({ apiKey: 'k', baseUrl: BASE }).baseUrl).toBe(BASE);
  });

  it('says how to give a key or base URL when neither is there', () => {
    vi.stubEnv('BIZMSG_API_KEY', '');
    vi.stubEnv('BIZMSG_BASE_URL', '');
    expect(constructionError({ baseUrl: BASE }).message).toBe('No API key: pass { apiKey } to the client or set the BIZMSG_API_KEY environment variable.');
    expect(constructionError({ apiKey: 'k' }).message).toBe('No base URL: pass { baseUrl } (ending with /api/v1) or set the BIZMSG_BASE_URL environment variable.');
    expect(constructionError(undefined)).toBeInstanceOf(InvalidArgumentError);
  });

  it.each([
    [{ baseUrl: 'api.bizmsg.test' }, 'The `baseUrl` option must be an absolute URL, got "api.bizmsg.test".'],
    [{ baseUrl: 'ftp://x.test/api/v1' }, 'The `baseUrl` option must be an http(s) URL, got ftp:.'],
    [{ baseUrl: 'https://user:pw@x.test/api/v1' }, 'The `baseUrl` option must not contain credentials, a query or a fragment.'],
    [{ timeout: 0 }, 'The `timeout` option must be a number of milliseconds from 1 to 2147483647, got 0.'],
    [{ timeout: Number.NaN }, 'The `timeout` option must be a number of milliseconds from 1 to 2147483647, got NaN.'],
    [{ timeout: '5000' }, 'The `timeout` option must be a number of milliseconds from 1 to 2147483647, got 5000.'],
    [{ maxRetries: -1 }, 'The `maxRetries` option must be an integer from 0 to 100, got -1.'],
    [{ maxRetries: 1.5 }, 'The `maxRetries` option must be an integer from 0 to 100, got 1.5.'],
    [{ maxRetryWait: -5 }, 'The `maxRetryWait` option must be a number of milliseconds from 0 to 2147483647, got -5.'],
    [{ rateLimit: { limit: 0, interval: 1000 } }, 'The `rateLimit` option must be false or { limit, interval } with a positive integer limit and a positive interval in ms.'],
    [{ rateLimit: true }, 'The `rateLimit` option must be false or { limit, interval } with a positive integer limit and a positive interval in ms.'],
    [{ fetch: 'fetch' }, 'The `fetch` option must be a function with the signature of fetch.'],
    [{ headers: { 'x-n': 1 } }, 'The `headers` option: the value of "x-n" must be a string.'],
    [{ headers: [['a', 'b']] }, 'The `headers` option must be an object of header names to string values.'],
  ])('rejects %j', (bad, message) => {
    const error = constructionError({ apiKey: 'k', baseUrl: BASE, ...bad });
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });

  it('rejects bad per-call options before sending anything', async () => {
    const { fetch, requests } = scriptedFetch(json(200, {}));
    const client = new Variant2Client({ apiKey: 'k', baseUrl: BASE, fetch });
    await expect(client.account.me({ timeout: -1 })).rejects.toThrow('The `timeout` option must be a number of milliseconds from 1 to 2147483647, got -1.');
    await expect(client.account.me({ signal: 'stop' as never })).rejects.toThrow('The `signal` option must be an AbortSignal.');
    await expect(client.account.me(null as never)).rejects.toThrow('Request options must be an object, e.g. { timeout: 5000 }.');
    expect(requests).toHaveLength(0);
  });

  it('sends client and per-call headers, but never lets them replace the key', async () => {
    const { fetch, requests } = scriptedFetch(json(200, {}));
    const client = new Variant2Client({ apiKey: 'k', baseUrl: BASE, fetch, headers: { 'x-team': 'growth', 'x-trace': 'a' } });
    await client.account.me({ headers: { 'x-trace': 'b', authorization: 'Bearer other' } });
    const { headers } = requests[0]!;
    expect([headers.get('x-team'), headers.get('x-trace'), headers.get('authorization')]).toEqual(['growth', 'b', 'Bearer k']);
  });

  it('keeps a base URL path prefix and drops trailing slashes', async () => {
    const { fetch, requests } = scriptedFetch(json(200, {}));
    const client = new Variant2Client({ apiKey: 'k', baseUrl: 'http://localhost:4010/proxy/api/v1//', fetch });
    await client.account.me();
    expect(requests[0]!.url).toBe('http://localhost:4010/proxy/api/v1/account/me');
  });
});
