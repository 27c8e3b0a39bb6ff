import { describe, expect, it } from 'vitest';
import { MockService, type MockRequest } from '../../src/mock/index.js';
import { errorEnvelope } from '../helpers/mock-api.js';

/** A request as the structural type allows it, with the seeded key of a Variant 1 service. */
function request(mock: MockService, overrides: Partial<MockRequest>): MockRequest {
  return {
    method: 'POST',
    url: `${mock.baseUrl}/contacts/create`,
    headers: new Headers({ 'x-api-key': mock.apiKey }),
    arrayBuffer: () => Promise.resolve(new TextEncoder().encode('{"name":"Ada","phone":"4915112345678"}').buffer),
    ...overrides,
  };
}

describe('MockService.handle', () => {
  const mock = new MockService({ variant: 1 });

  it('takes any request of the MockRequest shape, not only a fetch Request', async () => {
    const response = await mock.handle(request(mock, {}));
    expect([response.status, (await response.json()).data.name]).toEqual([200, 'Ada']);
  });

  it("rejects with the reason of the request's signal when it aborts, as fetch does; the request still takes effect", async () => {
    const fresh = new MockService({ variant: 1 });
    fresh.inject({ route: 'POST /contacts/create', delay: 200 });
    const controller = new AbortController();
    const pending = fresh.handle(request(fresh, { signal: controller.signal }));
    const reason = new Error('user gave up');
    controller.abort(reason);
    // Without the signal honoured, the delayed answer would resolve with 200.
    await expect(pending).rejects.toBe(reason);
    const aborted = { method: 'GET', url: `${fresh.baseUrl}/account/me`, signal: AbortSignal.abort(reason) };
    await expect(fresh.handle(request(fresh, aborted))).rejects.toBe(reason);
    // The aborted create reached the service, as on a server that received it before the client gave up.
    await expect.poll(() => fresh.state().contacts.map((c) => c.name), { timeout: 5000 }).toEqual(['Ada']);
  });

  it('answers a URL it cannot parse with 404 in the envelope instead of throwing', async () => {
    const response = await mock.handle(request(mock, { url: 'not a url' }));
    expect([response.status, await response.json()]).toEqual([
      404,
      errorEnvelope(1, { code: 'RESOURCE_NOT_FOUND', message: 'No API at this URL.' }),
    ]);
  });

  it('answers a failure of its own (here, a body that cannot be read) with 500 INTERNAL_ERROR in the envelope, naming only the error class', async () => {
    const response = await mock.handle(
      request(mock, { arrayBuffer: () => Promise.reject(new RangeError(`secret ${mock.apiKey}`)) }),
    );
    expect([response.status, await response.json()]).toEqual([
      500,
      errorEnvelope(1, { code: 'INTERNAL_ERROR', message: 'The mock failed unexpectedly (RangeError).' }),
    ]);
    expect(mock.store.contacts).toHaveLength(1);
    mock.pause();
  });
});

describe('MockService.answer', () => {
  const mock = new MockService({ variant: 1 });

  it('gives the answer as plain data, at once when nothing needs waiting for, and as handle() would', async () => {
    const get = request(mock, { method: 'GET', url: `${mock.baseUrl}/account/me` });
    const now = mock.answer(get);
    expect(now).not.toBeInstanceOf(Promise);
    const response = await mock.handle(get);
    const { status, headers, body } = now as Exclude<typeof now, Promise<unknown>>;
    // The same answer, one request further into the rate-limit window.
    expect([
      status,
      JSON.parse(body),
      { ...headers, 'x-ratelimit-remaining': String(Number(headers['x-ratelimit-remaining']) - 1) },
    ]).toEqual([response.status, await response.json(), Object.fromEntries(response.headers)]);
    expect(headers).toMatchObject({ 'content-type': 'application/json', 'x-ratelimit-limit': '1000' });
  });

  it('gives a promise where a body must be read or a fault waits, and throws only an injected network error', async () => {
    const created = mock.answer(request(mock, {}));
    expect(created).toBeInstanceOf(Promise);
    expect((await created).status).toBe(200);
    mock.inject({ route: 'GET /account/me', delay: 1 });
    const delayed = mock.answer(request(mock, { method: 'GET', url: `${mock.baseUrl}/account/me` }));
    expect(delayed).toBeInstanceOf(Promise);
    expect((await delayed).status).toBe(200);
    mock.inject({ route: 'GET /account/me', networkError: true });
    await expect(async () =>
      mock.answer(request(mock, { method: 'GET', url: `${mock.baseUrl}/account/me` })),
    ).rejects.toThrow('Injected network error');
  });
});
