import fc from 'fast-check';

// Inputs a careless or hostile caller may hand the clients: every option and argument, from
// plausible to absurd. Anything that would make a request leave the machine is left out.

/** Strings with the characters that break things: CR/LF, NUL, lone surrogates, RTL marks, emoji. */
export const oddString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'a\r\nb',
    'a\nb',
    'a\u0000b',
    '\ud800',
    'x\udc00',
    '\u202eevil',
    '\ufeffbom',
    '😀',
    'é',
    '\u0100',
    'x'.repeat(10_000),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)), maxLength: 3 }),
);

/** Values whose conversion to a string or JSON throws, or that JSON cannot represent. */
export const hostileValue = fc
  .constantFrom(
    'circular',
    'bigint',
    'throwing toJSON',
    'throwing getter',
    'throwing toString',
    'symbol',
    'null prototype',
    'proto key',
  )
  .map(makeHostile);

function makeHostile(kind: string): unknown {
  switch (kind) {
    case 'circular': {
      const value: Record<string, unknown> = { name: 'x', phone: '+4915112345678' };
      value.self = value;
      return value;
    }
    case 'bigint':
      return { name: 'x', phone: '+4915112345678', count: 10n };
    case 'throwing toJSON':
      return {
        name: 'x',
        toJSON: () => {
          throw new Error('toJSON refuses');
        },
      };
    case 'throwing getter':
      return Object.defineProperty({ name: 'x' }, 'phone', {
        enumerable: true,
        get: () => {
          throw new Error('getter refuses');
        },
      });
    case 'throwing toString':
      return {
        toString: () => {
          throw new Error('toString refuses');
        },
        valueOf: () => {
          throw new Error('valueOf refuses');
        },
      };
    case 'symbol':
      return Symbol('s');
    case 'null prototype':
      return Object.assign(Object.create(null) as object, { name: 'x', phone: '+4915112345678' });
    default:
      return JSON.parse('{"__proto__": {"polluted": true}, "name": "x", "phone": "+4915112345678"}');
  }
}

/** Anything at all, including the kinds JSON cannot carry. */
export const anyValue = fc.oneof(
  fc.anything({
    withBigInt: true,
    withMap: true,
    withSet: true,
    withDate: true,
    withTypedArray: true,
    withNullPrototype: true,
    withSparseArray: true,
    withBoxedValues: true,
    maxDepth: 3,
  }),
  hostileValue,
  oddString,
);

/** Path ids: numbers of every kind, traversal, encodings, lone surrogates, non-ids. */
export const idValue = fc.oneof(
  fc.integer({ min: -5, max: 1000 }),
  fc.constantFrom(0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, -0),
  fc.constantFrom(
    '1',
    '',
    '.',
    '..',
    '../x',
    '..%2f',
    '%2e%2e',
    'a/b',
    'a?b=1',
    '#x',
    ' 1',
    '\ud800',
    'x\udfff',
    '😀',
    '\u0000',
    '\r\n',
    'constructor',
    '__proto__',
  ),
  oddString,
  anyValue,
);

/** Header names and values, legal and not. */
const headerName = fc.oneof(
  fc.constantFrom(
    'x-ok',
    'X-Custom',
    'bad name',
    'bad:name',
    '',
    'é',
    'a\r\nb',
    'content-length',
    'transfer-encoding',
    'connection',
    'host',
    'expect',
    'upgrade',
    'keep-alive',
    'te',
    'authorization',
    'x-api-key',
    'content-type',
    'accept',
  ),
  fc.string({ maxLength: 12 }),
);
const headerValue = fc.oneof(
  fc.constantFrom(
    'ok',
    '',
    ' padded ',
    'a\r\nb: c',
    'a\nb',
    'a\u0000b',
    'é',
    '\u0100',
    '😀',
    '3',
    '100-continue',
    'chunked',
    'close',
  ),
  oddString,
  anyValue,
);

/**
 * Options as a careless caller writes them: a valid set with one or two fields replaced by
 * odd values (so that each odd value is tried on its own), or not an options object at all.
 */
function optionsWithOddFields(
  valid: fc.Arbitrary<Record<string, unknown>>,
  odd: Record<string, fc.Arbitrary<unknown>>,
) {
  const oddField = fc.oneof(...Object.entries(odd).map(([key, value]) => fc.record({ key: fc.constant(key), value })));
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    {
      weight: 5,
      arbitrary: fc
        .tuple(valid, fc.array(oddField, { minLength: 1, maxLength: 2 }))
        .map(([base, fields]) => Object.assign({ ...base }, ...fields.map(({ key, value }) => ({ [key]: value })))),
    },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom(null, 'options', 0, 42, [], true), anyValue) },
  );
}

/** Millisecond values that are not usable timers: tiny, past the 32-bit timer limit, fractional, not numbers. */
const oddMs = fc.oneof(
  fc.constantFrom(
    1,
    5,
    50,
    2_147_483_647,
    2_147_483_600,
    2_147_483_548,
    2_147_483_648,
    0,
    -1,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    1e300,
  ),
  anyValue,
);
/** Retry counts outside 0..100 or not integers (valid ones stay small: a run must stay short). */
const oddRetries = fc.constantFrom(-1, 101, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1', null, true, {}, [], 1n);
/** `headers` options with odd names and values, or not an object. */
const oddHeaders = fc.oneof(
  { weight: 3, arbitrary: fc.dictionary(headerName, headerValue, { minKeys: 1, maxKeys: 3 }) },
  { weight: 1, arbitrary: anyValue },
);
/** A `signal` option that is already aborted, aborts soon, or is not a signal. */
const oddSignal = fc.constantFrom('aborted', 'aborts soon', 'fake', 'string').map((kind): unknown => {
  switch (kind) {
    case 'aborted':
      return AbortSignal.abort();
    case 'aborts soon':
      return AbortSignal.timeout(5);
    case 'fake':
      return { aborted: false, addEventListener() {}, removeEventListener() {} };
    default:
      return 'signal';
  }
});

/** Per-call `RequestOptions` and list options, of any shape. */
export const requestOptionsValue = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: optionsWithOddFields(
      fc.record(
        {
          timeout: fc.oneof(fc.constantFrom(2000, 30_000), fc.integer({ min: 2000, max: 60_000 })),
          maxRetries: fc.constantFrom(0, 1),
          headers: fc.constantFrom({}, { 'x-trace': 'abc' }),
          signal: fc.constant(null).map(() => new AbortController().signal),
          prefetch: fc.constantFrom(0, 1, 4),
        },
        { requiredKeys: [] },
      ),
      {
        timeout: oddMs,
        maxRetries: oddRetries,
        headers: oddHeaders,
        signal: oddSignal,
        prefetch: fc.oneof(fc.constantFrom(33, -1, 1.5, '2'), anyValue),
        unknown: anyValue,
      },
    ),
  },
);

/** Phone numbers the mock accepts and rejects, and spellings the clients rewrite or refuse. */
export const phoneValue = fc.oneof(
  fc.constantFrom(
    '+4915112345678',
    '4915112345678',
    '+15550000001',
    '+15550000002',
    '123',
    '',
    '+49 151 1234',
    '0049 (0)151 1234-5678',
    '0151 1234 5678',
    '+0151',
  ),
  oddString,
  anyValue,
);

/** Request bodies: near-valid ones with odd fields, hostile ones, huge ones, anything. */
export const bodyValue = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record(
      {
        name: fc.oneof(oddString, anyValue),
        phone: phoneValue,
        to: phoneValue,
        message: fc.oneof(oddString, anyValue),
        body: fc.oneof(oddString, anyValue),
        messaging_account_id: fc.oneof(fc.constantFrom(1, 2, 3, 0, 1.5, '1'), anyValue),
        type: fc.constantFrom('text', 'template', 'video', undefined),
        content: anyValue,
        language: fc.constantFrom('en', '', undefined),
        components: fc.oneof(fc.constant([]), anyValue),
        tags: fc.oneof(fc.array(oddString, { maxLength: 3 }), anyValue),
        email: fc.oneof(fc.constantFrom('a@b.test', 'not an email'), anyValue),
        custom_fields: anyValue,
        automation_id: fc.constantFrom('welcome-flow', 'nope', 1),
        template_name: fc.constantFrom('welcome', 'nope'),
        segment_id: fc.constantFrom(1, 2, 9, '1'),
        scheduled_at: fc.constantFrom(
          new Date(Date.now() + 3_600_000).toISOString(),
          'garbage',
          '2020-01-01T00:00:00Z',
          '',
        ),
        // Only loopback or unusable URLs: a registered endpoint gets real deliveries.
        url: fc.constantFrom('http://127.0.0.1:9/hook', 'not a url', '', 'ftp://127.0.0.1/x', 'javascript:alert(1)'),
        events: fc.oneof(fc.constantFrom(['message.delivered'], ['nope'], []), anyValue),
        secret: fc.oneof(oddString, anyValue),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: hostileValue },
  { weight: 1, arbitrary: fc.constant({ name: 'x'.repeat(1_000_000), phone: '+4915112345678' }) },
  { weight: 2, arbitrary: anyValue },
  { weight: 1, arbitrary: fc.constantFrom(undefined, null, 'body', 0, []) },
);

/** List parameters: numbers, strings, hostile values in each query field. */
export const listParamsValue = fc.oneof(
  fc.record(
    {
      page: fc.oneof(fc.integer({ min: -2, max: 5 }), anyValue),
      per_page: fc.oneof(fc.integer({ min: -2, max: 120 }), anyValue),
      search: fc.oneof(oddString, anyValue),
      tag: fc.oneof(oddString, anyValue),
      status: fc.oneof(fc.constantFrom('open', 'closed', 'pending', 'nope'), anyValue),
      assigned_to: fc.oneof(oddString, anyValue),
    },
    { requiredKeys: [] },
  ),
  fc.constantFrom(undefined, null, 'params', 7),
  anyValue,
);

/** The argument of `toArray()`. */
export const toArrayValue = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    {},
    { max: 0 },
    { max: 3 },
    { max: -1 },
    { max: Number.NaN },
    { max: 1.5 },
    { max: '2' },
  ),
  anyValue,
);

/** Base URLs around a local origin: right, nearly right, and wrong in every way. */
export function baseUrlValue(origin: string) {
  const { host } = new URL(origin);
  return fc.oneof(
    fc.constantFrom(
      `${origin}/api/v1`,
      `${origin}/api/v1/`,
      `${origin}/api/v1//`,
      `${origin}/x/api/v1`,
      `HTTP://${host}/api/v1`,
      `${origin}/api/v2`,
      `${origin}/`,
      origin,
      `${origin}/api`,
      `${origin}/API/V1`,
      `${origin}/api/v1/contacts`,
      `${origin}/api/v1/..`,
      `${origin}/api/v1/%2e%2e`,
      `${origin}/api/v1?x=1`,
      `${origin}/api/v1#x`,
      `http://user:pw@${host}/api/v1`,
      `ftp://${host}/api/v1`,
      `${host}/api/v1`,
      '/api/v1',
      '',
      ' ',
      `${origin}/api/v1 `,
      ` ${origin}/api/v1`,
      `${origin}/api/v1\t`,
    ),
    oddString,
    anyValue,
  );
}

/** Client options of any shape, around a valid set for the local server. */
export function clientOptionsValue(origin: string, apiKey: string) {
  return optionsWithOddFields(
    fc.record(
      {
        apiKey: fc.constant(apiKey),
        baseUrl: fc.constantFrom(`${origin}/api/v1`, `${origin}/api/v1/`),
        timeout: fc.oneof(fc.constantFrom(2000, 30_000), fc.integer({ min: 2000, max: 60_000 })),
        maxRetries: fc.constantFrom(0, 1),
        maxRetryWait: fc.constantFrom(0, 1000, 60_000),
        rateLimit: fc.constantFrom(false, { limit: 10, interval: 1000 }),
        headers: fc.constantFrom({}, { 'x-trace': 'abc' }),
        phoneFormat: fc.constantFrom('e164', 'digits', 'keep'),
      },
      { requiredKeys: ['apiKey', 'baseUrl'] },
    ),
    {
      apiKey: fc.oneof(fc.constantFrom(undefined, '', ' ', `${apiKey}\n`, ` ${apiKey}`, 'k', 'sk_\u00e9'), anyValue),
      baseUrl: baseUrlValue(origin),
      timeout: oddMs,
      maxRetries: oddRetries,
      maxRetryWait: oddMs,
      rateLimit: fc.oneof(
        fc.constantFrom(
          true,
          null,
          { limit: 0, interval: 1000 },
          { limit: 1.5, interval: 1000 },
          { limit: 10, interval: -1 },
          { limit: 10, interval: Number.NaN },
        ),
        anyValue,
      ),
      fetch: fc.oneof(fc.constantFrom('fetch', 42, null, {}), anyValue),
      headers: oddHeaders,
      phoneFormat: fc.oneof(fc.constantFrom('E164', 'international', '', null), anyValue),
      unknown: anyValue,
    },
  );
}
