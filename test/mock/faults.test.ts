import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/index.js';
import { errorEnvelope, rawApi } from '../helpers/mock-api.js';

const mock = createMockServer({ variant: 1, seed: 7 });
const api = rawApi(mock);
beforeAll(() => mock.listen());
afterAll(() => mock.close());
beforeEach(() => {
  mock.reset();
});

describe('fault injection', () => {
  it('answers the next N matching requests with a status in the variant envelope, then recovers', async () => {
    mock.inject({ route: 'GET /contacts/:id', status: 500, times: 2 });
    expect((await api('GET', '/account/me')).status).toBe(200);
    const failed = await api('GET', '/contacts/1');
    expect([failed.status, failed.body]).toEqual([
      500,
      errorEnvelope(1, { code: 'INTERNAL_ERROR', message: 'Injected fault: 500.' }),
    ]);
    expect((await api('GET', '/contacts/7')).status).toBe(500);
    expect((await api('GET', '/contacts/1')).status).toBe(404);
  });

  it('injects 502 MESSAGING_ERROR and 429 with Retry-After', async () => {
    mock.inject({ route: 'POST /messages/send', status: 502 });
    mock.inject({ route: /^GET \/account/, status: 429 });
    expect((await api('POST', '/messages/send', { body: { to: '4915112345678', message: 'x' } })).body.error.code).toBe(
      'MESSAGING_ERROR',
    );
    const limited = await api('GET', '/account/me');
    expect([limited.status, limited.headers.get('retry-after'), limited.body.error.code]).toEqual([
      429,
      '1',
      'RATE_LIMIT_EXCEEDED',
    ]);
  });

  it('fails the connection', async () => {
    mock.inject({ route: 'GET /account/me', networkError: true });
    await expect(api('GET', '/account/me')).rejects.toThrow(TypeError);
    expect((await api('GET', '/account/me')).status).toBe(200);
  });

  it('delays a response', async () => {
    mock.inject({ route: 'GET /account/me', delay: 150 });
    const started = Date.now();
    expect((await api('GET', '/account/me')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('hits a share of requests, the same share for the same seed', async () => {
    const run = async () => {
      const fresh = createMockServer({ variant: 1, seed: 42, baseUrl: 'https://seeded.bizmsg.test/api/v1' });
      fresh.listen();
      fresh.inject({ route: 'GET /account/me', status: 500, rate: 0.3 });
      const statuses: number[] = [];
      for (let i = 0; i < 200; i++) statuses.push((await rawApi(fresh)('GET', '/account/me')).status);
      fresh.close();
      return statuses;
    };
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    const share = a.filter((s) => s === 500).length / a.length;
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.4);
  });

  it('gives each of two sampled faults on one route its own chance', async () => {
    const fresh = createMockServer({ variant: 2, seed: 7, baseUrl: 'https://two-faults.bizmsg.test/api/v1' });
    fresh.listen();
    fresh.inject({ route: 'GET /account/me', status: 500, rate: 0.2 });
    fresh.inject({ route: 'GET /account/me', status: 502, rate: 0.2 });
    const counts: Record<number, number> = {};
    for (let i = 0; i < 400; i++) {
      const { status } = await rawApi(fresh)('GET', '/account/me');
      counts[status] = (counts[status] ?? 0) + 1;
    }
    fresh.close();
    // Expected shares: 500 at 0.2, 502 at 0.8 x 0.2 = 0.16, 200 at 0.64.
    expect(counts[500]).toBeGreaterThan(50);
    expect(counts[502]).toBeGreaterThan(35);
    expect(counts[200]! + counts[500]! + counts[502]!).toBe(400);
  });

  it('gives an injected status the code the spec table gives it in the variant, and asks for one where it gives none', async () => {
    const v2 = createMockServer({ variant: 2, baseUrl: 'https://faults-v2.bizmsg.test/api/v1' });
    v2.listen();
    try {
      v2.inject({ route: 'GET /account/me', status: 422 });
      const validation = await rawApi(v2)('GET', '/account/me');
      expect([validation.status, validation.body]).toEqual([
        422,
        errorEnvelope(2, { code: 'VALIDATION_ERROR', message: 'Injected fault: 422.' }),
      ]);
      expect(() => v2.inject({ status: 400 })).toThrow(
        'The spec gives status 400 no single error code in this variant: give the fault a code too.',
      );
      v2.inject({ route: 'GET /account/me', status: 400, code: 'INVALID_PHONE' });
      expect((await rawApi(v2)('GET', '/account/me')).body.error.code).toBe('INVALID_PHONE');
    } finally {
      v2.close();
    }
    mock.inject({ route: 'GET /account/me', status: 400 });
    expect((await api('GET', '/account/me')).body.error.code).toBe('VALIDATION_ERROR');
    for (const status of [422, 503])
      expect(() => mock.inject({ status })).toThrow(
        `The spec gives status ${status} no single error code in this variant: give the fault a code too.`,
      );
    for (const status of [200, 302, 600, 404.5])
      expect(() => mock.inject({ status, code: 'X' })).toThrow(
        `A fault status is an error status from 400 to 599, got ${status}.`,
      );
    mock.inject({ route: 'GET /account/me', status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect((await api('GET', '/account/me')).status).toBe(503);
  });

  it('clearFaults() removes them; a fault needs something to do', () => {
    mock.inject({ status: 500, rate: 1 });
    mock.clearFaults();
    expect(() => mock.inject({ route: 'GET /x' })).toThrow('A fault needs a status, networkError: true or a delay.');
    expect(() => mock.inject({ status: 500, rate: 2 })).toThrow('A fault rate is a share from 0 to 1.');
  });

  it('refuses a field a fault does not have, as the control API does, and injects nothing', async () => {
    const spec = { path: '/account/me', status: 500 } as Parameters<typeof mock.inject>[0];
    expect(() => mock.inject(spec)).toThrow(
      'A fault has no field "path"; its fields are route, status, code, networkError, delay, times, rate.',
    );
    expect(() => mock.inject(null as unknown as Parameters<typeof mock.inject>[0])).toThrow(
      'A fault is an object such as { status: 500 }, got null.',
    );
    expect(mock.faults()).toEqual([]);
    expect((await api('GET', '/account/me')).status).toBe(200);
  });

  it('refuses a route that names no endpoint, since its fault would never fire, and a code its status never has', async () => {
    const refused = (spec: Parameters<typeof mock.inject>[0]) => {
      try {
        mock.inject(spec);
      } catch (error) {
        return [
          (error as Error).message.replace(/ \(this variant's endpoints are .*\)| names no endpoint: .*/, '…'),
          (error as { details: unknown }).details,
        ];
      }
      return 'injected';
    };
    expect(refused({ route: 'GET /acount/me', status: 500 })).toEqual([
      'A fault\'s route "GET /acount/me"…',
      { route: ['names no endpoint of this variant'] },
    ]);
    expect(refused({ route: '/account/me', status: 500 })).toEqual([
      'A fault\'s route must be "METHOD /path"…, got "/account/me".',
      { route: ['must be "METHOD /path", e.g. "POST /messages/send"'] },
    ]);
    expect(refused({ route: 'GET /account/me', status: 500, code: 'RATE_LIMIT_EXCEEDED' })).toEqual([
      "A fault's code RATE_LIMIT_EXCEEDED comes with status 429 in this variant, not 500.",
      { code: ['comes with status 429 in this variant'] },
    ]);
    expect(mock.faults()).toEqual([]);
    // The method in any case, the base path, `{id}` or `:id`, a trailing slash: all name the same endpoint.
    for (const route of ['get /account/me', 'GET /api/v1/account/me', 'GET /contacts/{contactId}', 'GET /contacts/:id'])
      expect(refused({ route, status: 500 })).toBe('injected');
    mock.clearFaults();
  });
});
