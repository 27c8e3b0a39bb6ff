import { describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/mock/index.js';
import { VARIANT1_PLANS, VARIANT2_PLANS } from '../../src/mock/options.js';
import { errorEnvelope, rawApi, useMocks } from '../helpers/mock-api.js';

const v1 = createMockServer({
  variant: 1,
  baseUrl: 'https://v1.bizmsg.test/api/v1',
  plans: { tiny: { rateLimit: 3, window: 10_000 } },
});
const v2 = createMockServer({
  variant: 2,
  baseUrl: 'https://v2.bizmsg.test/api/v1',
  plans: { tiny: { rateLimit: 3, window: 10_000 } },
});
// Two instances side by side in one process.
useMocks(v1, v2);

/** Moves the mock's clock just past the start of a window, so that a test never straddles two. */
async function startOfWindow(mock: MockServer, windowMs: number): Promise<void> {
  await mock.clock.advance(windowMs - (mock.clock.now() % windowMs) + 50);
}

it('has the spec plan limits per minute by default', () => {
  expect(Object.fromEntries(Object.entries(VARIANT1_PLANS).map(([name, plan]) => [name, plan.rateLimit]))).toEqual({
    starter: 60,
    growth: 300,
    pro: 1000,
    enterprise: 5000,
  });
  expect(Object.fromEntries(Object.entries(VARIANT2_PLANS).map(([name, plan]) => [name, plan.rateLimit]))).toEqual({
    starter: 100,
    professional: 500,
    enterprise: 2000,
  });
});

describe.each([
  [1, v1],
  [2, v2],
] as Array<[1 | 2, MockServer]>)('Variant %i', (variant, mock) => {
  const api = rawApi(mock);

  it('sends X-RateLimit-* on every response, success and error alike', async () => {
    await startOfWindow(mock, 60_000);
    const key = mock.createKey({ plan: 'starter' });
    const ok = await api('GET', '/account/me', { key });
    const notFound = await api('GET', '/contacts/999', { key });
    const limit = variant === 1 ? '60' : '100';
    const reset = String(Math.ceil((Math.floor(mock.clock.now() / 60_000) + 1) * 60));
    expect([
      ok.headers.get('x-ratelimit-limit'),
      ok.headers.get('x-ratelimit-remaining'),
      ok.headers.get('x-ratelimit-reset'),
    ]).toEqual([limit, String(Number(limit) - 1), reset]);
    expect([notFound.status, notFound.headers.get('x-ratelimit-remaining')]).toEqual([404, String(Number(limit) - 2)]);
  });

  it('answers 429 RATE_LIMIT_EXCEEDED with Retry-After once the window is spent, per key', async () => {
    await startOfWindow(mock, 10_000);
    const key = mock.createKey({ plan: 'tiny' });
    const windowEnd = (Math.floor(mock.clock.now() / 10_000) + 1) * 10_000;
    for (let i = 0; i < 3; i++) expect((await api('GET', '/account/me', { key })).status).toBe(200);
    const limited = await api('GET', '/account/me', { key });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(
      errorEnvelope(variant, { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit of 3 requests per 10 s exceeded.' }),
    );
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-reset')).toBe(String(windowEnd / 1000));
    expect(Number(limited.headers.get('retry-after'))).toBe(
      Math.max(1, Math.ceil((windowEnd - mock.clock.now()) / 1000)),
    );
    // another key has its own window
    expect((await api('GET', '/account/me', { key: mock.createKey({ plan: 'tiny' }) })).status).toBe(200);
  });

  it('opens a new window when the clock passes the reset', async () => {
    await startOfWindow(mock, 10_000);
    const key = mock.createKey({ plan: 'tiny' });
    for (let i = 0; i < 4; i++) await api('GET', '/account/me', { key });
    await mock.clock.advance(10_000);
    const next = await api('GET', '/account/me', { key });
    expect([next.status, next.headers.get('x-ratelimit-remaining')]).toEqual([200, '2']);
  });

  it('sends the virtual time in the Date header, so clients can correct for it', async () => {
    await mock.clock.advance(3 * 3600_000);
    const response = await api('GET', '/account/me');
    expect(Math.abs(Date.parse(response.headers.get('date')!) - mock.clock.now())).toBeLessThan(1000);
  });
});

it('rejects a plan without a usable rate limit', () => {
  expect(() => createMockServer({ plans: { broken: { rateLimit: 0 } } })).toThrow(
    'Plan "broken" needs a positive integer rateLimit.',
  );
  for (const window of [999, Number.POSITIVE_INFINITY, Number.NaN]) {
    expect(() => createMockServer({ plans: { broken: { rateLimit: 5, window } } })).toThrow(
      `Plan "broken": window is a finite number of ms, at least 1000, got ${window}.`,
    );
  }
  expect(() => createMockServer().createKey({ plan: 'platinum' })).toThrow(
    'Unknown plan "platinum"; this mock has: starter, professional, enterprise.',
  );
  expect(() => createMockServer().createKey({ plan: 'toString' })).toThrow('Unknown plan "toString"');
});
