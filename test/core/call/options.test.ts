import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError, Variant1Client, Variant2Client, type ClientOptions } from '../../../src/index.js';
import { json, scriptedFetch } from '../../helpers/scripted-fetch.js';

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
    expect(constructionError({ baseUrl: BASE }).message).toBe(
      'No API key: pass { apiKey } to the client or set the BIZMSG_API_KEY environment variable.',
    );
    expect(constructionError({ apiKey: 'k' }).message).toBe(
      'No base URL: pass { baseUrl } (ending with /api/v1) or set the BIZMSG_BASE_URL environment variable.',
    );
    expect(constructionError(undefined)).toBeInstanceOf(InvalidArgumentError);
  });

  it('says an API key of another kind is not a string, without showing it', () => {
    for (const [apiKey, kind] of [
      [12345, 'a number'],
      [{ key: 'sk_live_1' }, 'an object'],
    ] as const) {
      const error = constructionError({ apiKey, baseUrl: BASE });
      expect([error.name, error.message]).toEqual([
        'InvalidArgumentError',
        `The \`apiKey\` option must be a string, got ${kind}.`,
      ]);
    }
  });

  it.each([
    [
      { baseUrl: 'api.bizmsg.test' },
      `The \`baseUrl\` option must be an http(s) URL ending with /api/v1 (e.g. https://api.example.com/api/v1), but it has no scheme such as https:// (15 characters) (its value is not shown: it may be a secret, such as an API key pasted in the wrong place).`,
    ],
    [
      { baseUrl: 'ftp://x.test/api/v1' },
      `The \`baseUrl\` option must be an http(s) URL ending with /api/v1 (e.g. https://api.example.com/api/v1), but its scheme is not http or https (its value is not shown: it may be a secret, such as an API key pasted in the wrong place).`,
    ],
    [
      { baseUrl: 'https://user:pw@x.test/api/v1' },
      `The \`baseUrl\` option must be an http(s) URL ending with /api/v1 (e.g. https://api.example.com/api/v1), but it contains credentials, a query or a fragment (its value is not shown: it may be a secret, such as an API key pasted in the wrong place).`,
    ],
    [{ timeout: 0 }, 'The `timeout` option must be a number of milliseconds from 1 to 2147483647, got 0.'],
    [{ timeout: Number.NaN }, 'The `timeout` option must be a number of milliseconds from 1 to 2147483647, got NaN.'],
    [{ timeout: '5000' }, 'The `timeout` option must be a number of milliseconds from 1 to 2147483647, got "5000".'],
    [{ maxRetries: -1 }, 'The `maxRetries` option must be an integer from 0 to 100, got -1.'],
    [{ maxRetries: 1.5 }, 'The `maxRetries` option must be an integer from 0 to 100, got 1.5.'],
    [{ maxRetryWait: -5 }, 'The `maxRetryWait` option must be a number of milliseconds from 0 to 2147483647, got -5.'],
    [
      { rateLimit: { limit: 0, interval: 1000 } },
      'The `rateLimit` option must be false or { limit, interval } with a positive integer limit and a positive interval in ms.',
    ],
    [
      { rateLimit: true },
      'The `rateLimit` option must be false or { limit, interval } with a positive integer limit and a positive interval in ms.',
    ],
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
    await expect(client.account.me({ timeout: -1 })).rejects.toThrow(
      'The `timeout` option must be a number of milliseconds from 1 to 2147483647, got -1.',
    );
    await expect(client.account.me({ signal: 'stop' as never })).rejects.toThrow(
      'The `signal` option must be an AbortSignal.',
    );
    await expect(client.account.me(null as never)).rejects.toThrow(
      'Request options must be an object, e.g. { timeout: 5000 }.',
    );
    expect(requests).toHaveLength(0);
  });

  it('sends client and per-call headers, but never lets them replace the key', async () => {
    const { fetch, requests } = scriptedFetch(json(200, {}));
    const client = new Variant2Client({
      apiKey: 'k',
      baseUrl: BASE,
      fetch,
      headers: { 'x-team': 'growth', 'x-trace': 'a' },
    });
    await client.account.me({ headers: { 'x-trace': 'b', authorization: 'Bearer other' } });
    const { headers } = requests[0]!;
    expect([headers.get('x-team'), headers.get('x-trace'), headers.get('authorization')]).toEqual([
      'growth',
      'b',
      'Bearer k',
    ]);
  });

  it('keeps a base URL path prefix and drops trailing slashes', async () => {
    const { fetch, requests } = scriptedFetch(json(200, {}));
    const client = new Variant2Client({ apiKey: 'k', baseUrl: 'http://localhost:4010/proxy/api/v1//', fetch });
    await client.account.me();
    expect(requests[0]!.url).toBe('http://localhost:4010/proxy/api/v1/account/me');
  });
});

describe('local mistakes are argument errors, found before anything is sent', () => {
  const setup = (options: Partial<ClientOptions> = {}) => {
    const { fetch, requests } = scriptedFetch(json(200, { data: { id: 'msg_1', status: 'sent' } }));
    return {
      client: new Variant2Client({ apiKey: 'sk_secret_key', baseUrl: BASE, fetch, maxRetries: 2, ...options }),
      requests,
    };
  };
  const reason = async (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (e: unknown) => e as Error,
    );

  it.each([
    [{ 'x-trace\r\nx-evil': 'a' }, 'The `headers` option: "x-trace\\r\\nx-evil" is not a valid HTTP header name.'],
    [{ 'bad name': 'a' }, 'The `headers` option: "bad name" is not a valid HTTP header name.'],
    [
      { 'x-trace': 'a\r\nx-evil: 1' },
      'The `headers` option: the value of "x-trace" contains a line break, a control character or a character beyond Latin-1, which HTTP headers cannot carry.',
    ],
    [
      { 'x-emoji': '🙂' },
      'The `headers` option: the value of "x-emoji" contains a line break, a control character or a character beyond Latin-1, which HTTP headers cannot carry.',
    ],
  ])('rejects the client header %j at construction', (headers, message) => {
    const error = constructionError({ apiKey: 'k', baseUrl: BASE, headers });
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });

  it('rejects a per-call header that fetch could not send, at once and for a POST too', async () => {
    const { client, requests } = setup();
    const error = await reason(
      client.messages.sendText(
        { to: '4915112345678', messaging_account_id: 1, body: 'x' },
        { headers: { 'x-id': 'a\nb' } },
      ),
    );
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error!.message).toBe(
      'The `headers` option: the value of "x-id" contains a line break, a control character or a character beyond Latin-1, which HTTP headers cannot carry.',
    );
    const get = await reason(client.contacts.get(1, { headers: { 'x y': 'a' } }));
    expect(get).toBeInstanceOf(InvalidArgumentError);
    expect(requests).toHaveLength(0);
  });

  it('lower-cases header names so that a user header cannot be merged with the key', async () => {
    const { fetch, requests } = scriptedFetch(json(200, { success: true, data: {} }));
    const client = new Variant1Client({ apiKey: 'k', baseUrl: BASE, fetch, headers: { 'X-API-Key': 'other' } });
    await client.account.me({ headers: { 'X-Trace': 'b' } });
    expect(requests[0]!.headers.get('x-api-key')).toBe('k');
    expect(requests[0]!.headers.get('x-trace')).toBe('b');
  });

  it.each([
    [
      'a cycle',
      () => {
        const fields: Record<string, unknown> = { a: 1 };
        fields.self = fields;
        return fields;
      },
      'The body of POST /contacts cannot be sent as JSON at "custom_fields.self": ',
    ],
    [
      'a BigInt',
      () => ({ big: 10n }),
      'The body of POST /contacts cannot be sent as JSON at "custom_fields.big": Do not know how to serialize a BigInt',
    ],
    [
      'a NaN',
      () => ({ score: Number.NaN }),
      'The body of POST /contacts cannot be sent as JSON at "custom_fields.score": NaN is no JSON number (JSON.stringify would send null)',
    ],
    [
      'an Infinity',
      () => ({ nested: { limit: [1, -Infinity] } }),
      'The body of POST /contacts cannot be sent as JSON at "custom_fields.nested.limit.1": -Infinity is no JSON number (JSON.stringify would send null)',
    ],
    [
      'a throwing toJSON',
      () => ({
        when: {
          toJSON: () => {
            throw new Error('no date');
          },
        },
      }),
      'The body of POST /contacts cannot be sent as JSON at "custom_fields.when": no date',
    ],
  ])('rejects a body with %s, naming the field, and sends nothing', async (_, customFields, message) => {
    const { client, requests } = setup();
    const error = await reason(
      client.contacts.create({ name: 'Ada', phone: '4915112345678', custom_fields: customFields() }),
    );
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error!.message.startsWith(message)).toBe(true);
    expect(requests).toHaveLength(0);
  });

  it.each([
    [
      'sendText(null)',
      (c: Variant2Client) => c.messages.sendText(null as never),
      'messages.sendText needs an object of parameters, got null.',
    ],
    [
      'sendTemplate(undefined)',
      (c: Variant2Client) => c.messages.sendTemplate(undefined as never),
      'messages.sendTemplate needs an object of parameters, got undefined.',
    ],
    [
      'send("hi")',
      (c: Variant2Client) => c.messages.send('hi' as never),
      'The body of POST /messages/send must be an object, got a string.',
    ],
    [
      'create([])',
      (c: Variant2Client) => c.contacts.create([] as never),
      'The body of POST /contacts must be an object, got an array.',
    ],
    [
      'list("x")',
      (c: Variant2Client) => c.contacts.list('x' as never),
      'The parameters of GET /contacts must be an object, got a string.',
    ],
    [
      'list({ tag: {} })',
      (c: Variant2Client) => c.contacts.list({ tag: {} as never }),
      'The query parameter `tag` of GET /contacts must be a string, a finite number or a boolean, got an object.',
    ],
    [
      'list({ page: NaN })',
      (c: Variant2Client) => c.contacts.list({ page: Number.NaN }),
      'The query parameter `page` of GET /contacts must be a string, a finite number or a boolean, got NaN.',
    ],
  ])('%s rejects with an InvalidArgumentError instead of throwing', async (_, call, message) => {
    const { client, requests } = setup();
    let pending: PromiseLike<unknown> | undefined;
    expect(() => {
      pending = call(client);
    }).not.toThrow();
    const error = await reason(Promise.resolve(pending));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error!.message).toBe(message);
    expect(requests).toHaveLength(0);
  });

  it.each([
    ['https://api.bizmsg.test', 'it has no path'],
    ['https://api.bizmsg.test/api', 'its path does not end with /api/v1'],
    ['https://api.bizmsg.test/api/v2', 'its path does not end with /api/v1'],
    ['https://api.bizmsg.test/api/v1/contacts', 'its path goes on past /api/v1'],
  ])('rejects the base URL %s, which does not end with /api/v1', (baseUrl, problem) => {
    const error = constructionError({ apiKey: 'k', baseUrl });
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(
      `The \`baseUrl\` option must be an http(s) URL ending with /api/v1 (e.g. https://api.example.com/api/v1), but ${problem} (its value is not shown: it may be a secret, such as an API key pasted in the wrong place).`,
    );
  });

  // A key pasted where the URL goes (or the two variables swapped) must not end up in a log.
  const KEY = 'sk_live_0123456789abcdef0123456789abcdef';
  it.each([
    ['the key itself', KEY, 'it has no scheme such as https:// (40 characters)'],
    ['the key with a scheme', `https://${KEY}:x`, 'it is not a valid URL (50 characters)'],
    ['the key after a scheme', `key:${KEY}`, 'its scheme is not http or https'],
    ['the key in the path', `https://api.bizmsg.test/api/v1/${KEY}`, 'its path goes on past /api/v1'],
    ['the key as the last segment', `https://api.bizmsg.test/${KEY}`, 'its path does not end with /api/v1'],
    [
      'the key in the query',
      `https://api.bizmsg.test/api/v1?key=${KEY}`,
      'it contains credentials, a query or a fragment',
    ],
  ])('never shows a base URL in its error: %s', (_, baseUrl, problem) => {
    const error = constructionError({ apiKey: 'k', baseUrl });
    expect(error.message).toBe(
      `The \`baseUrl\` option must be an http(s) URL ending with /api/v1 (e.g. https://api.example.com/api/v1), but ${problem} (its value is not shown: it may be a secret, such as an API key pasted in the wrong place).`,
    );
    expect(error.message).not.toContain('0123456789abcdef');
    vi.stubEnv('BIZMSG_BASE_URL', baseUrl);
    const fromEnv = constructionError({ apiKey: 'k' });
    expect(fromEnv.message).toBe(
      `The BIZMSG_BASE_URL environment variable must be an http(s) URL ending with /api/v1 (e.g. https://api.example.com/api/v1), but ${problem} (its value is not shown: it may be a secret, such as an API key pasted in the wrong place).`,
    );
    expect(JSON.stringify(fromEnv) + String(fromEnv.stack)).not.toContain('0123456789abcdef');
  });
});

describe('timers from options', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a timeout of 2147483647 ms does not time out at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let aborted = false;
    const fetch = (async (input: Request) =>
      new Promise<Response>((resolve, reject) => {
        input.signal.addEventListener('abort', () => {
          aborted = true;
          reject(input.signal.reason);
        });
        setTimeout(() => resolve(json(200, { id: 1, phone: '1' })), 60_000);
      })) as typeof globalThis.fetch;
    const client = new Variant2Client({ apiKey: 'k', baseUrl: BASE, fetch, timeout: 2_147_483_647, maxRetries: 0 });
    const pending = client.contacts.get(1);
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(pending).resolves.toEqual({ id: 1, phone: '1' });
    expect(aborted).toBe(false);
  });
});

describe('found by the client fuzz suite', () => {
  const setup = () => {
    const { fetch, requests } = scriptedFetch(json(200, { data: [] }));
    return { client: new Variant2Client({ apiKey: 'k', baseUrl: BASE, fetch }), requests };
  };
  const reason = async (promise: PromiseLike<unknown>) =>
    Promise.resolve(promise).then(
      () => undefined,
      (e: unknown) => e as Error,
    );

  it('a list() with bad options that nobody consumes yet leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (error: unknown) => void unhandled.push(error);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { client, requests } = setup();
      const list = client.contacts.list({}, { prefetch: -1 });
      // A turn of the event loop: an unhandled rejection is reported once the microtasks drain.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      const error = await reason(list);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error!.message).toBe('The `prefetch` option must be an integer from 0 to 32, got -1.');
      expect(requests).toHaveLength(0);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('an id with a lone surrogate is an InvalidArgumentError, not a URIError', async () => {
    const { client } = setup();
    const error = await reason(client.contacts.get('\ud800'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error!.message).toBe('An id must be well-formed text; this one holds a lone UTF-16 surrogate.');
  });

  it('values String() cannot show are described by their kind', async () => {
    expect(constructionError({ apiKey: 'k', baseUrl: BASE, timeout: Object.create(null) }).message).toBe(
      'The `timeout` option must be a number of milliseconds from 1 to 2147483647, got an object.',
    );
    expect(constructionError({ apiKey: 'k', baseUrl: 10n }).message).toBe(
      `The \`baseUrl\` option must be an http(s) URL ending with /api/v1 (e.g. https://api.example.com/api/v1), but it is a bigint (its value is not shown: it may be a secret, such as an API key pasted in the wrong place).`,
    );
    const { client } = setup();
    expect((await reason(client.account.me({ maxRetries: Object.create(null) })))!.message).toBe(
      'The `maxRetries` option must be an integer from 0 to 100, got an object.',
    );
    expect((await reason(client.contacts.list({}, { prefetch: Object.create(null) })))!.message).toBe(
      'The `prefetch` option must be an integer from 0 to 32, got an object.',
    );
  });

  it('a getter of the caller that throws is an InvalidArgumentError naming what was read', async () => {
    const { client, requests } = setup();
    const body = Object.defineProperty({ name: 'x' }, 'phone', {
      enumerable: true,
      get: () => {
        throw new Error('no phone');
      },
    });
    const created = await reason(client.contacts.create(body as never));
    expect(created).toBeInstanceOf(InvalidArgumentError);
    // `phone` is read first to check the number (the phoneFormat option).
    expect(created!.message).toBe('Reading the arguments of POST /contacts threw: Error: no phone');
    const params = Object.defineProperty({}, 'tag', {
      enumerable: true,
      get: () => {
        throw new TypeError('bad tag');
      },
    });
    const listed = await reason(client.contacts.list(params));
    expect(listed!.message).toBe('Reading the arguments of GET /contacts threw: TypeError: bad tag');
    const options = Object.defineProperty({}, 'prefetch', {
      enumerable: true,
      get: () => {
        throw new Error('no');
      },
    });
    expect((await reason(client.contacts.list({}, options as never)))!.message).toBe(
      'Reading the options of list() threw: Error: no',
    );
    expect(requests).toHaveLength(0);
    const clientOptions = Object.defineProperty({ apiKey: 'k' }, 'baseUrl', {
      get: () => {
        throw new Error('env broken');
      },
    });
    const constructed = constructionError(clientOptions);
    expect(constructed).toBeInstanceOf(InvalidArgumentError);
    expect(constructed.message).toBe('Reading the client options threw: Error: env broken');
  });

  it('toArray(null) is an InvalidArgumentError', async () => {
    const { client } = setup();
    const error = await reason(client.contacts.list().toArray(null as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error!.message).toBe('The options of toArray() must be an object, e.g. { max: 100 }, got null.');
  });

  it.each(['transfer-encoding', 'Expect', 'upgrade', 'keep-alive', 'connection', 'content-length'])(
    'refuses the header %s, which the HTTP layer sets itself, before sending',
    async (name) => {
      expect(constructionError({ apiKey: 'k', baseUrl: BASE, headers: { [name]: 'x' } }).message).toBe(
        `The \`headers\` option: "${name}" is set by the HTTP layer itself and cannot be given.`,
      );
      const { client, requests } = setup();
      const error = await reason(
        client.messages.sendText(
          { to: '4915112345678', messaging_account_id: 1, body: 'x' },
          { headers: { [name]: '3' } },
        ),
      );
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(requests).toHaveLength(0);
    },
  );
});
