import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BizMsgError,
  ConnectionError,
  InsufficientPermissionsError,
  InternalError,
  InvalidArgumentError,
  InvalidPhoneError,
  KeyRevokedError,
  MessagingError,
  PlanLimitExceededError,
  RateLimitExceededError,
  ResourceNotFoundError,
  ResponseValidationError,
  TemplateNotFoundError,
  TimeoutError,
  ValidationError,
  Variant1Client,
  Variant2Client,
} from '../../../src/index.js';
import { json, scriptedFetch, v1Error, v2Error } from '../../helpers/scripted-fetch.js';

const KEY = 'sk_live_SECRET_abcdef123456';
const BASE = 'https://api.bizmsg.test/api/v1';

const table = [
  ['VALIDATION_ERROR', 400, ValidationError],
  ['INVALID_PHONE', 400, InvalidPhoneError],
  ['TEMPLATE_NOT_FOUND', 400, TemplateNotFoundError],
  ['AUTHENTICATION_ERROR', 401, AuthenticationError],
  ['KEY_REVOKED', 401, KeyRevokedError],
  ['INSUFFICIENT_PERMISSIONS', 403, InsufficientPermissionsError],
  ['PLAN_LIMIT_EXCEEDED', 403, PlanLimitExceededError],
  ['RESOURCE_NOT_FOUND', 404, ResourceNotFoundError],
  ['RATE_LIMIT_EXCEEDED', 429, RateLimitExceededError],
  ['INTERNAL_ERROR', 500, InternalError],
  ['MESSAGING_ERROR', 502, MessagingError],
] as const;

function v1(response: Response | Error) {
  const { fetch, requests } = scriptedFetch(response);
  return { client: new Variant1Client({ apiKey: KEY, baseUrl: BASE, fetch, maxRetries: 0 }), requests };
}
function v2(response: Response | Error) {
  const { fetch, requests } = scriptedFetch(response);
  return { client: new Variant2Client({ apiKey: KEY, baseUrl: BASE, fetch, maxRetries: 0 }), requests };
}
const rateHeaders = {
  'x-ratelimit-limit': '60',
  'x-ratelimit-remaining': '0',
  'x-ratelimit-reset': '1900000000',
  'retry-after': '120',
};

describe('error envelopes', () => {
  it.each(table)('Variant 1 %s (%i) -> its class', async (code, status, ErrorClass) => {
    const details = { phone: ['is invalid'] };
    const { client } = v1(v1Error(status, code, `The ${code} message`, details, rateHeaders));
    const error = await client.contacts.get('ct_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(BizMsgError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: ErrorClass.name,
      status,
      code,
      details,
      method: 'GET',
      path: '/contacts/ct_1',
      // A validation error's message carries the reasons too, so that String(error) in a log keeps them.
      message: `GET /contacts/ct_1 failed with ${status} ${code}: The ${code} message${code === 'VALIDATION_ERROR' ? ' (phone: is invalid)' : ''}`,
      rateLimit: { limit: 60, remaining: 0, reset: 1900000000 },
      mayHaveBeenProcessed: false,
    });
    expect((error as ApiError).headers.get('retry-after')).toBe('120');
  });

  it.each(table.map(([code, status, C]) => [code, code === 'VALIDATION_ERROR' ? 422 : status, C] as const))(
    'Variant 2 %s (%i) -> its class',
    async (code, status, ErrorClass) => {
      const { client } = v2(v2Error(status, code, 'msg', {}));
      const error = await client.contacts.get(1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ErrorClass);
      expect(error).toMatchObject({
        status,
        code,
        details: {},
        message: `GET /contacts/1 failed with ${status} ${code}: msg`,
      });
    },
  );

  it('gives RateLimitExceededError the Retry-After seconds', async () => {
    const { client } = v2(v2Error(429, 'RATE_LIMIT_EXCEEDED', 'slow down', {}, { 'retry-after': '120' }));
    const error = (await client.account.me().catch((e: unknown) => e)) as RateLimitExceededError;
    expect(error.retryAfter).toBe(120);
  });

  it('keeps an unknown code on a plain ApiError', async () => {
    const { client } = v2(v2Error(409, 'DUPLICATE_CONTACT', 'Phone already used', { phone: ['taken'] }));
    const error = await client.contacts.create({ name: 'A', phone: '4915112345678' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error!.constructor).toBe(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'DUPLICATE_CONTACT', details: { phone: ['taken'] } });
  });

  it.each(['constructor', 'valueOf', '__proto__', 'toString'])(
    'keeps the code %j on a plain ApiError (no prototype lookup)',
    async (code) => {
      const { client } = v2(json(400, { error: { code, message: 'm', details: {} } }));
      const error = (await client.account.me().catch((e: unknown) => e)) as ApiError;
      expect([error.constructor, error.code]).toEqual([ApiError, code]);
    },
  );

  it('types a proxy HTML 502 by its status, with a snippet of the body', async () => {
    const html = `<html><head><title>502 Bad Gateway</title></head><body>${'x'.repeat(300)}</body></html>`;
    const { client } = v2(
      new Response(html, { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } }),
    );
    const error = (await client.contacts
      .create({ name: 'A', phone: '4915112345678' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(MessagingError);
    expect(error.code).toBe('MESSAGING_ERROR');
    expect(error.mayHaveBeenProcessed).toBe(true);
    expect(error.message).toBe(
      `POST /contacts failed with 502 MESSAGING_ERROR: HTTP 502 Bad Gateway without an error envelope (text/html): ${html.slice(0, 200)}… (the request may have been processed; it was not retried to avoid a duplicate)`,
    );
  });

  it('types statuses without one code (403, 503) as ApiError with an HTTP_ code', async () => {
    const { client } = v2(new Response('', { status: 503 }));
    const error = (await client.account.me().catch((e: unknown) => e)) as ApiError;
    expect(error.constructor).toBe(ApiError);
    expect(error.code).toBe('HTTP_503');
    expect(error.message).toBe('GET /account/me failed with 503 HTTP_503: HTTP 503 with an empty body');
    const forbidden = v1(new Response('nope', { status: 403 }));
    const e403 = (await forbidden.client.account.me().catch((e: unknown) => e)) as ApiError;
    expect([e403.constructor, e403.code]).toEqual([ApiError, 'HTTP_403']);
  });

  it('reads { error: "text" } and top-level { code, message } bodies', async () => {
    const a = v2(json(400, { error: 'Bad things' }));
    expect(await a.client.account.me().catch((e: ApiError) => [e.code, e.message])).toEqual([
      'HTTP_400',
      'GET /account/me failed with 400 HTTP_400: Bad things',
    ]);
    const b = v2(json(404, { code: 'RESOURCE_NOT_FOUND', message: 'No such contact' }));
    expect(await b.client.contacts.get(5).catch((e: unknown) => e)).toBeInstanceOf(ResourceNotFoundError);
  });
});

describe('secrets', () => {
  it('never shows the API key, even when the server echoes it', async () => {
    const { client } = v1(v1Error(401, 'AUTHENTICATION_ERROR', `Key ${KEY} is invalid`, { key: KEY }));
    const error = (await client.account.me().catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('GET /account/me failed with 401 AUTHENTICATION_ERROR: Key [REDACTED] is invalid');
    expect(error.details).toEqual({ key: '[REDACTED]' });
    for (const text of [
      error.message,
      error.stack ?? '',
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
      inspect(client, { depth: 10, showHidden: true }),
      JSON.stringify(client),
      String(error),
    ]) {
      expect(text).not.toContain(KEY);
    }
  });

  it('redacts a key hidden by JSON escapes', async () => {
    const key = 'sk_"quoted"/A_key';
    const escaped = String.raw`{"error":{"code":"AUTHENTICATION_ERROR","message":"bad","details":{"key":"sk_\"quoted\"\/\u0041_key"}}}`;
    expect(JSON.parse(escaped).error.details.key).toBe(key);
    const { fetch } = scriptedFetch(new Response(escaped, { status: 401 }));
    const client = new Variant2Client({ apiKey: key, baseUrl: BASE, fetch, maxRetries: 0 });
    const error = (await client.account.me().catch((e: unknown) => e)) as ApiError;
    expect(error.details).toEqual({ key: '[REDACTED]' });
  });

  it('rejects a key that cannot be sent in a header, without quoting it', () => {
    const error = (() => {
      try {
        return new Variant2Client({ apiKey: 'sk_live_é_secret', baseUrl: BASE });
      } catch (e) {
        return e as InvalidArgumentError;
      }
    })();
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toBe(
      'The API key contains spaces or characters that cannot be sent in an HTTP header; copy it again from the dashboard.',
    );
  });

  it('redacts the key from the raw body of a ResponseValidationError', async () => {
    const { client } = v2(json(200, { data: { id: 1, phone: [5], note: KEY } }));
    const error = (await client.contacts.get(1).catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.body).toBe('{"data":{"id":1,"phone":[5],"note":"[REDACTED]"}}');
    expect(inspect(error)).not.toContain(KEY);
  });

  it('keeps the key out of errors for any key a server echoes back (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom(...'abcXYZ0129_-"\\/<>&{}'), minLength: 12, maxLength: 40 }),
        async (key) => {
          const { fetch } = scriptedFetch(v2Error(401, 'AUTHENTICATION_ERROR', `bad key ${key}`, { key }));
          const client = new Variant2Client({ apiKey: key, baseUrl: BASE, fetch, maxRetries: 0 });
          const error = await client.account.me().catch((e: unknown) => e);
          const shown = [
            (error as Error).message,
            inspect(error),
            JSON.stringify(error),
            JSON.parse(JSON.stringify(error)).details.key,
          ];
          for (const text of shown) expect(text).not.toContain(key);
          expect((error as ApiError).details).toEqual({ key: '[REDACTED]' });
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('a validation error names each field with its reasons', () => {
  const refused = async (message: string, details: Record<string, unknown>) =>
    String(
      await v2(v2Error(422, 'VALIDATION_ERROR', message, details))
        .client.contacts.get(1)
        .catch((e: unknown) => e),
    );

  it('in its message, so that String(error) in a log keeps them', async () => {
    expect(
      await refused('Invalid request parameters: phone, name.', {
        phone: ['is required'],
        name: ['must not be empty', 'x'],
      }),
    ).toBe(
      'ValidationError: GET /contacts/1 failed with 422 VALIDATION_ERROR: Invalid request parameters: phone, name. (phone: is required; name: must not be empty, x)',
    );
  });

  it('leaves out the reasons the message already says, those that are no text, and an empty list', async () => {
    expect(
      await refused('The phone field is required.', {
        phone: ['The phone field is required.'],
        tags: [{ nested: 1 }, 7],
      }),
    ).toBe('ValidationError: GET /contacts/1 failed with 422 VALIDATION_ERROR: The phone field is required.');
    expect(await refused('Invalid', { name: 'is taken' })).toBe(
      'ValidationError: GET /contacts/1 failed with 422 VALIDATION_ERROR: Invalid (name: is taken)',
    );
    expect(await refused('Invalid', {})).toBe(
      'ValidationError: GET /contacts/1 failed with 422 VALIDATION_ERROR: Invalid',
    );
  });

  it('cuts the reasons short; details keeps them all', async () => {
    const details = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`field${i}`, ['is required']]));
    const error = await v2(v2Error(422, 'VALIDATION_ERROR', 'Invalid', details))
      .client.contacts.get(1)
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /^GET \/contacts\/1 failed with 422 VALIDATION_ERROR: Invalid \(field0: is required; .{400,}…\)$/,
    );
    expect((error as Error).message.length).toBeLessThan(600);
    expect(Object.keys((error as ValidationError).details)).toHaveLength(100);
  });
});

describe('error objects', () => {
  it('serialise to JSON without headers or stack', async () => {
    const { client } = v2(v2Error(422, 'VALIDATION_ERROR', 'Invalid', { to: ['required'] }));
    const error = await client.messages
      .send({ to: '+4915112345678', messaging_account_id: 1, type: 'text', content: { body: 'x' } })
      .catch((e: unknown) => e);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'ValidationError',
      message: 'POST /messages/send failed with 422 VALIDATION_ERROR: Invalid (to: required)',
      status: 422,
      code: 'VALIDATION_ERROR',
      details: { to: ['required'] },
      method: 'POST',
      path: '/messages/send',
      mayHaveBeenProcessed: false,
    });
  });

  it('brand checks work across two copies of the package', async () => {
    vi.resetModules();
    const copy = await import('../../../src/core/errors/classes.js');
    expect(copy.ValidationError).not.toBe(ValidationError);
    const foreign = new copy.ValidationError({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'm',
      details: {},
      headers: new Headers(),
      method: 'GET',
      path: '/x',
    });
    expect(foreign).toBeInstanceOf(ValidationError);
    expect(foreign).toBeInstanceOf(ApiError);
    expect(foreign).toBeInstanceOf(BizMsgError);
    expect(foreign).not.toBeInstanceOf(RateLimitExceededError);
    expect(ValidationError.is(foreign)).toBe(true);
    expect(ApiError.is(foreign)).toBe(true);
    expect(TimeoutError.is(foreign)).toBe(false);
    expect(BizMsgError.is(new Error('x'))).toBe(false);
    expect(BizMsgError.is({ name: 'BizMsgError' })).toBe(false);
    expect(BizMsgError.is(null)).toBe(false);
    const timeout = new copy.TimeoutError('t', true);
    expect(timeout).toBeInstanceOf(ConnectionError);
    expect(timeout).toBeInstanceOf(TimeoutError);
    expect(new InvalidArgumentError('x')).not.toBeInstanceOf(ApiError);
  });

  it('have the class name in their stack header', () => {
    expect(
      new ValidationError({
        status: 400,
        code: 'VALIDATION_ERROR',
        message: 'm',
        details: {},
        headers: new Headers(),
        method: 'GET',
        path: '/x',
      }).stack,
    ).toMatch(/^ValidationError: GET \/x failed/);
  });
});

describe('headers of errors', () => {
  it('never show the key, even when a server echoes it in a response header', async () => {
    const echoed = v2Error(
      401,
      'AUTHENTICATION_ERROR',
      'bad',
      {},
      { 'x-echo-key': `Bearer ${KEY}`, 'x-request-id': 'req_1' },
    );
    const { client } = v2(echoed);
    const error = (await client.account.me().catch((e: unknown) => e)) as ApiError;
    expect(error.headers.get('x-echo-key')).toBe('Bearer [REDACTED]');
    expect(error.headers.get('x-request-id')).toBe('req_1');
    for (const text of [inspect(error, { depth: 10, showHidden: true }), JSON.stringify(error), String(error)]) {
      expect(text).not.toContain(KEY);
    }
  });
});

describe('a huge id', () => {
  it('is cut short in the message and the path the error keeps, and sent whole', async () => {
    const id = '9'.repeat(100_000);
    const { client, requests } = v2(v2Error(404, 'RESOURCE_NOT_FOUND', 'No such contact'));
    const error = (await client.contacts.get(id).catch((e: unknown) => e)) as ApiError;
    const shown = `/contacts/${'9'.repeat(191)}…`;
    expect([error.path, error.message]).toEqual([
      shown,
      `GET ${shown} failed with 404 RESOURCE_NOT_FOUND: No such contact`,
    ]);
    expect(requests[0]!.url).toBe(`${BASE}/contacts/${id}`);
  });
});
