import { getResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * msw's Service Worker needs a page; here a recording stand-in for `setupWorker` checks what
 * createMockWorker asks of it, and msw's own getResponse runs the handlers it would be given.
 */
const workers = vi.hoisted(() => [] as Array<{ handlers: unknown[]; starts: unknown[]; stops: number; fail: boolean }>);
vi.mock('msw/browser', () => ({
  setupWorker: (...handlers: unknown[]) => {
    const worker = { handlers, starts: [] as unknown[], stops: 0, fail: workers.length === 0 && failFirst.value };
    workers.push(worker);
    return {
      start: (options: unknown) => (
        worker.starts.push(options),
        worker.fail ? Promise.reject(new Error('no mockServiceWorker.js')) : Promise.resolve(undefined)
      ),
      stop: () => void worker.stops++,
    };
  },
}));
const failFirst = vi.hoisted(() => ({ value: false }));

const { createMockWorker } = await import('../../src/mock/browser.js');
// A page the started worker controls (start() checks it): Node has no navigator.serviceWorker.
beforeEach(() => {
  vi.stubGlobal('navigator', { serviceWorker: { controller: {}, addEventListener() {}, removeEventListener() {} } });
});
afterEach(() => {
  workers.length = 0;
  failFirst.value = false;
  vi.unstubAllGlobals();
});

describe('createMockWorker', () => {
  it('answers through its handlers like the msw/node mock, in the variant envelope', async () => {
    const mock = createMockWorker({ variant: 1 });
    const request = new Request(`${mock.baseUrl}/contacts/create`, {
      method: 'POST',
      headers: { 'x-api-key': mock.apiKey },
      body: '{"name":"Ada","phone":"4915112345678"}',
    });
    const response = await getResponse(mock.handlers, request);
    expect([response?.status, (await response!.json()).data.name, mock.store.contacts.length]).toEqual([200, 'Ada', 1]);
    expect(await getResponse(mock.handlers, new Request('https://elsewhere.test/contacts/create'))).toBeUndefined();
    mock.stop();
  });

  it('answers an injected network fault with a failed fetch (Response.error())', async () => {
    const mock = createMockWorker({ variant: 2 });
    mock.inject({ route: 'GET /contacts', networkError: true });
    const response = await getResponse(
      mock.handlers,
      new Request(`${mock.baseUrl}/contacts`, { headers: { authorization: `Bearer ${mock.apiKey}` } }),
    );
    expect(response?.type).toBe('error');
    mock.stop();
  });

  it("starts one Service Worker for all started mocks, passes msw's start options through, and stops it after the last", async () => {
    const first = createMockWorker({ variant: 1, baseUrl: 'https://one.test/api' });
    const second = createMockWorker({ variant: 2, baseUrl: 'https://two.test/api' });
    await first.start({ quiet: true, serviceWorker: { url: '/msw.js' } });
    await second.start();
    expect(workers.map((w) => [w.handlers.length, w.starts])).toEqual([
      [1, [{ onUnhandledRequest: 'bypass', quiet: true, serviceWorker: { url: '/msw.js' } }]],
    ]);
    const served = await getResponse(
      workers[0]!.handlers as never,
      new Request('https://two.test/api/contacts', { headers: { authorization: `Bearer ${second.apiKey}` } }),
    );
    expect(served?.status).toBe(200);
    first.stop();
    expect(workers[0]!.stops).toBe(0);
    second.stop();
    expect(workers[0]!.stops).toBe(1);
  });

  it("rejects start() with msw's error when the worker cannot register, and the next start() tries afresh", async () => {
    failFirst.value = true;
    const mock = createMockWorker({ variant: 2 });
    await expect(mock.start()).rejects.toThrow('no mockServiceWorker.js');
    await mock.start();
    expect(workers.map((w) => [w.starts.length, w.stops])).toEqual([
      [1, 1],
      [1, 0],
    ]);
    mock.stop();
  });
});
