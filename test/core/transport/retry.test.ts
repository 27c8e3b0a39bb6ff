import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AbortError,
  type ApiError,
  ConnectionError,
  ResourceNotFoundError,
  ResponseValidationError,
  InternalError,
  MessagingError,
  RateLimitExceededError,
  TimeoutError,
  Variant1Client,
  Variant2Client,
  type ClientOptions,
} from '../../../src/index.js';
import { settleStepwise } from '../../helpers/fake-time.js';
import { hang, json, networkError, scriptedFetch, v2Error, type Step } from '../../helpers/scripted-fetch.js';

const BASE = 'https://api.bizmsg.test/api/v1';
const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const ok = json(200, { data: { id: 1, phone: '4915112345678' } });
const sent = json(200, { data: { id: 'msg_1', status: 'sent' } });

function setup(steps: Step[], options: ClientOptions = {}) {
  const { fetch, requests } = scriptedFetch(...steps);
  const client = new Variant2Client({ apiKey: 'sk_test', baseUrl: BASE, fetch, ...options });
  return { client, requests, offsets: () => requests.map((r) => r.at - T0) };
}

/** Runs `promise` to completion while fake time advances; real I/O (module loading) may interleave. */
async function settle<T>(promise: Promise<T>): Promise<T | Error> {
  let done = false;
  const result = promise
    .catch((e: unknown) => e as Error)
    .finally(() => {
      done = true;
    });
  while (!done) {
    await vi.runAllTimersAsync();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return result;
}

const send = (client: Variant2Client, options = {}) =>
  client.messages.sendText({ to: '4915112345678', messaging_account_id: 1, body: 'Hi' }, options);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: T0 });
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('retries of idempotent requests', () => {
  it('retries a GET on 500 with exponential backoff, then succeeds', async () => {
    const { client, offsets } = setup([v2Error(500, 'INTERNAL_ERROR'), v2Error(502, 'MESSAGING_ERROR'), ok]);
    await expect(settle(client.contacts.get(1))).resolves.toEqual({ id: 1, phone: '4915112345678' });
    // equal jitter with random() = 0: half of 500 ms, then half of 1000 ms
    expect(offsets()).toEqual([0, 250, 750]);
  });

  it('uses the full jitter range: random() = 1 doubles the wait', async () => {
    vi.mocked(Math.random).mockReturnValue(1);
    const { client, offsets } = setup([v2Error(500, 'INTERNAL_ERROR'), ok]);
    await settle(client.contacts.get(1));
    expect(offsets()).toEqual([0, 500]);
  });

  it('caps the backoff at 8 s', async () => {
    vi.mocked(Math.random).mockReturnValue(1);
    const { client, offsets } = setup([v2Error(500, 'INTERNAL_ERROR')], { maxRetries: 6 });
    const error = await settle(client.contacts.get(1));
    expect(error).toBeInstanceOf(InternalError);
    expect(offsets()).toEqual([0, 500, 1500, 3500, 7500, 15500, 23500]);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const { client, requests } = setup([v2Error(500, 'INTERNAL_ERROR', 'boom')]);
    const error = await settle(client.contacts.get(1));
    expect(error).toBeInstanceOf(InternalError);
    expect((error as InternalError).mayHaveBeenProcessed).toBe(false);
    expect(requests).toHaveLength(3);
  });

  it('retries PUT and DELETE on 5xx too', async () => {
    const put = setup([v2Error(503, 'X'), ok]);
    await settle(put.client.contacts.update(1, { name: 'B' }));
    expect(put.requests.map((r) => r.method)).toEqual(['PUT', 'PUT']);
    const del = setup([v2Error(500, 'INTERNAL_ERROR'), json(200, { deleted: true })]);
    await expect(settle(del.client.contacts.delete(1))).resolves.toEqual({ deleted: true });
    expect(del.requests).toHaveLength(2);
  });

  it('honours a per-call maxRetries of 0', async () => {
    const { client, requests } = setup([v2Error(500, 'INTERNAL_ERROR'), ok]);
    expect(await settle(client.contacts.get(1, { maxRetries: 0 }))).toBeInstanceOf(InternalError);
    expect(requests).toHaveLength(1);
  });

  it('does not retry 4xx other than 429', async () => {
    const { client, requests } = setup([v2Error(404, 'RESOURCE_NOT_FOUND'), ok]);
    await settle(client.contacts.get(1));
    expect(requests).toHaveLength(1);
  });

  it('retries a GET whose connection was reset after sending', async () => {
    const { client, requests } = setup([networkError('ECONNRESET'), ok]);
    await expect(settle(client.contacts.get(1))).resolves.toMatchObject({ id: 1 });
    expect(requests).toHaveLength(2);
  });

  it('retries a GET that timed out, then reports the timeout', async () => {
    const { client, offsets } = setup([hang()], { timeout: 1000, maxRetries: 1 });
    const error = await settle(client.contacts.get(1));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toBe('GET /contacts/1 timed out after 1000 ms; retries used up');
    expect((error as TimeoutError).mayHaveBeenProcessed).toBe(false);
    // the time-out fires after 1000 ms, then 250 ms backoff
    expect(offsets()).toEqual([0, 1250]);
  });
});

describe('time-outs', () => {
  it('give every request its own timeout, to within 10 ms', async () => {
    const ended: Record<string, number> = {};
    const { client } = setup([ok, hang()], { timeout: 1000, maxRetries: 0 });
    // Answered once, the client knows its budget: no request waits for another's answer.
    await client.contacts.get(0);
    const start = Date.now();
    const track = (name: string, promise: Promise<unknown>) =>
      promise.catch((error: unknown) => {
        expect(error).toBeInstanceOf(TimeoutError);
        ended[name] = Date.now() - start;
      });
    const first = track('first', client.contacts.get(1));
    await vi.advanceTimersByTimeAsync(5);
    const second = track('second', client.contacts.get(2));
    await vi.advanceTimersByTimeAsync(2000);
    await Promise.all([first, second]);
    expect(ended.first).toBeGreaterThanOrEqual(1000);
    expect(ended.second! - 5).toBeGreaterThanOrEqual(1000);
    expect(ended.first).toBeLessThanOrEqual(1010);
    expect(ended.second! - 5).toBeLessThanOrEqual(1010);
  });

  it('do not touch a request that already completed', async () => {
    const { client, requests } = setup([ok, hang()], { timeout: 1000, maxRetries: 0 });
    await expect(settle(client.contacts.get(1))).resolves.toMatchObject({ id: 1 });
    expect(requests).toHaveLength(1);
  });
});

describe('POST is never repeated once it may have reached the server', () => {
  it('does not retry a send on 500 and says it may have been processed', async () => {
    const { client, requests } = setup([v2Error(500, 'INTERNAL_ERROR', 'Unexpected'), sent]);
    const error = (await settle(send(client))) as InternalError;
    expect(error).toBeInstanceOf(InternalError);
    expect(error.mayHaveBeenProcessed).toBe(true);
    expect(error.message).toBe(
      'POST /messages/send failed with 500 INTERNAL_ERROR: Unexpected (the request may have been processed; it was not retried to avoid a duplicate)',
    );
    expect(requests).toHaveLength(1);
  });

  it('does not retry a send on 502 MESSAGING_ERROR', async () => {
    const { client, requests } = setup([v2Error(502, 'MESSAGING_ERROR'), sent]);
    expect(await settle(send(client))).toBeInstanceOf(MessagingError);
    expect(requests).toHaveLength(1);
  });

  it('does not retry a send whose connection was reset', async () => {
    const { client, requests } = setup([networkError('ECONNRESET'), sent]);
    const error = (await settle(send(client))) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.mayHaveBeenProcessed).toBe(true);
    expect(error.message).toBe(
      'POST /messages/send failed to connect to api.bizmsg.test:443 (ECONNRESET) after the request may have been sent; it was not retried to avoid a duplicate',
    );
    expect(requests).toHaveLength(1);
  });

  it('does not retry a send that timed out', async () => {
    const { client, requests } = setup([hang(), sent], { timeout: 500 });
    const error = (await settle(send(client))) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.mayHaveBeenProcessed).toBe(true);
    expect(error.message).toBe(
      'POST /messages/send timed out after 500 ms; the request may have been processed, so it was not retried to avoid a duplicate',
    );
    expect(requests).toHaveLength(1);
  });

  it('does not retry a send that failed with an unknown network error', async () => {
    const { client, requests } = setup([new TypeError('Failed to fetch'), sent]);
    expect(await settle(send(client))).toBeInstanceOf(ConnectionError);
    expect(requests).toHaveLength(1);
  });

  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT'])(
    'retries a send that failed before sending (%s)',
    async (code) => {
      const { client, requests } = setup([networkError(code), sent]);
      await expect(settle(send(client))).resolves.toEqual({ id: 'msg_1', status: 'sent' });
      expect(requests).toHaveLength(2);
    },
  );

  it('reports a refused connection once retries are used up, as not processed', async () => {
    const { client, requests } = setup([networkError('ECONNREFUSED')]);
    const error = (await settle(send(client))) as ConnectionError;
    expect(error.message).toBe(
      'POST /messages/send failed to connect to api.bizmsg.test:443 (ECONNREFUSED); retries used up',
    );
    expect(error.mayHaveBeenProcessed).toBe(false);
    expect(requests).toHaveLength(3);
  });

  it('says a refused connection was not retried when maxRetries is 0', async () => {
    const { client, requests } = setup([networkError('ECONNREFUSED')], { maxRetries: 0 });
    const error = (await settle(send(client))) as ConnectionError;
    expect(error.message).toBe(
      'POST /messages/send failed to connect to api.bizmsg.test:443 (ECONNREFUSED); not retried (maxRetries: 0)',
    );
    expect(requests).toHaveLength(1);
  });

  it('retries a send on 429, which the server rejected unprocessed', async () => {
    const { client, offsets } = setup([v2Error(429, 'RATE_LIMIT_EXCEEDED', 'slow', {}, { 'retry-after': '2' }), sent]);
    await expect(settle(send(client))).resolves.toMatchObject({ id: 'msg_1' });
    expect(offsets()).toEqual([0, 2000]);
  });

  it('keeps Variant 1 sends to the same rules', async () => {
    const { fetch, requests } = scriptedFetch(
      json(500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'x', details: {} } }),
    );
    const client = new Variant1Client({ apiKey: 'k', baseUrl: BASE, fetch });
    expect(await settle(client.messages.send({ to: '4915112345678', message: 'Hi' }))).toBeInstanceOf(InternalError);
    expect(requests).toHaveLength(1);
  });
});

describe('429 handling', () => {
  it('waits until X-RateLimit-Reset when there is no Retry-After', async () => {
    const reset = String(T0 / 1000 + 5);
    const { client, offsets } = setup([
      v2Error(
        429,
        'RATE_LIMIT_EXCEEDED',
        'slow',
        {},
        { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
      ),
      ok,
    ]);
    await settle(client.contacts.get(1));
    expect(offsets()).toEqual([0, 5000]);
  });

  it('accepts Retry-After as an HTTP date', async () => {
    const { client, offsets } = setup([
      v2Error(429, 'RATE_LIMIT_EXCEEDED', 'slow', {}, { 'retry-after': new Date(T0 + 3000).toUTCString() }),
      ok,
    ]);
    await settle(client.contacts.get(1));
    expect(offsets()).toEqual([0, 3000]);
  });

  it('throws at once, with retryAfter, when the wait is longer than maxRetryWait', async () => {
    const { client, requests } = setup(
      [v2Error(429, 'RATE_LIMIT_EXCEEDED', 'slow', {}, { 'retry-after': '120' }), ok],
      { maxRetryWait: 60_000 },
    );
    const error = (await settle(client.contacts.get(1))) as RateLimitExceededError;
    expect(error).toBeInstanceOf(RateLimitExceededError);
    expect(error.retryAfter).toBe(120);
    expect(requests).toHaveLength(1);
  });

  it('throws RateLimitExceededError when retries are used up', async () => {
    const { client, requests, offsets } = setup(
      [v2Error(429, 'RATE_LIMIT_EXCEEDED', 'slow', {}, { 'retry-after': '1' })],
      { maxRetries: 2 },
    );
    const error = (await settle(client.contacts.get(1))) as RateLimitExceededError;
    expect(error).toBeInstanceOf(RateLimitExceededError);
    expect(error.retryAfter).toBe(1);
    expect(requests).toHaveLength(3);
    expect(offsets()).toEqual([0, 1000, 2000]);
  });

  it('holds other requests of the same client until the Retry-After is over', async () => {
    const { client, requests } = setup([v2Error(429, 'RATE_LIMIT_EXCEEDED', 'slow', {}, { 'retry-after': '3' }), ok]);
    const first = client.contacts.get(1);
    while (requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(10);
    const second = client.contacts.get(2);
    await settle(Promise.all([first, second]));
    expect(requests.map((r) => [r.url.slice(-1), r.at - requests[0]!.at])).toEqual([
      ['1', 0],
      ['1', 3000],
      ['2', 3000],
    ]);
  });
});

describe('abort', () => {
  it('cancels the wait before a retry', async () => {
    const { client, requests } = setup([v2Error(500, 'INTERNAL_ERROR'), ok]);
    const controller = new AbortController();
    const pending = client.contacts.get(1, { signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    const reason = new Error('user gave up');
    controller.abort(reason);
    const error = (await pending) as AbortError;
    expect(error).toBeInstanceOf(AbortError);
    expect(error.message).toBe('GET /contacts/1 was aborted by its signal');
    expect(error.cause).toBe(reason);
    await vi.runAllTimersAsync();
    expect(requests).toHaveLength(1);
  });

  it('cancels a request in flight with the signal reason, and does not retry it', async () => {
    const { client, requests } = setup([hang(), ok]);
    const controller = new AbortController();
    const pending = client.contacts.get(1, { signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(50);
    controller.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    await vi.runAllTimersAsync();
    expect(requests).toHaveLength(1);
  });

  it('stops at the abort even when the fetch option ignores the signal (a stub, a test double)', async () => {
    let requests = 0;
    // Never settles, whatever the signal does: only the client's own race can end the call.
    const deaf: typeof fetch = () => {
      requests += 1;
      return new Promise<Response>(() => undefined);
    };
    const client = new Variant2Client({ apiKey: 'sk_test_abort', baseUrl: BASE, fetch: deaf, maxRetries: 3 });
    const controller = new AbortController();
    const pending = client.contacts.get(1, { signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(50);
    const reason = new Error('user gave up');
    controller.abort(reason);
    const error = (await pending) as AbortError;
    expect([error.name, error.message, error.cause]).toEqual([
      'AbortError',
      'GET /contacts/1 was aborted by its signal',
      reason,
    ]);
    await vi.runAllTimersAsync();
    expect(requests).toBe(1);
  });

  it('rejects at once with an already aborted signal', async () => {
    const { client, requests } = setup([ok]);
    expect(await settle(client.contacts.get(1, { signal: AbortSignal.abort() }))).toMatchObject({ name: 'AbortError' });
    expect(requests).toHaveLength(0);
  });
});

describe('a 429 waits what it asks, not what older headers said (issue: one 429 stalled the client)', () => {
  it('holds later calls for the Retry-After of a gateway 429, not until a window reset 40 s away', async () => {
    const window = {
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '50',
      'x-ratelimit-reset': String(T0 / 1000 + 40),
    };
    const gateway429 = new Response('<html>Too Many Requests</html>', {
      status: 429,
      headers: { 'retry-after': '1', 'content-type': 'text/html' },
    });
    const { client, offsets } = setup([
      json(200, { data: { id: 1, phone: '4915112345678' } }, window),
      gateway429,
      ok,
      ok,
    ]);
    await settleStepwise(client.contacts.get(1));
    const limited = client.contacts.get(2);
    await vi.advanceTimersByTimeAsync(10);
    const later = client.contacts.get(3);
    await settleStepwise(Promise.all([limited, later]));
    // the 429'd call is retried after 1 s, and the call made meanwhile was held until then
    expect(offsets()).toEqual([0, 0, 1000, 1000]);
  });

  it('follows the 429 even when it carries remaining 0 for a window that ends later', async () => {
    const reset = String(T0 / 1000 + 40);
    const limited = v2Error(
      429,
      'RATE_LIMIT_EXCEEDED',
      'slow',
      {},
      { 'retry-after': '2', 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
    );
    const { client, offsets } = setup([limited, ok]);
    await settleStepwise(client.contacts.get(1));
    expect(offsets()).toEqual([0, 2000]);
  });

  it('refuses other calls at once, unsent, while a 429 wait longer than maxRetryWait runs; sends again after it', async () => {
    const { client, offsets } = setup([v2Error(429, 'RATE_LIMIT_EXCEEDED', 'slow', {}, { 'retry-after': '120' }), ok], {
      maxRetryWait: 5000,
    });
    expect(await settleStepwise(client.contacts.get(1))).toBeInstanceOf(RateLimitExceededError);
    const refused = (await settleStepwise(client.contacts.get(2, { timeout: 1000 }))) as RateLimitExceededError;
    expect(refused).toBeInstanceOf(RateLimitExceededError);
    expect(refused.message).toBe(
      'GET /contacts/2 failed with 429 RATE_LIMIT_EXCEEDED: not sent: an earlier 429 asked this client to wait 120 s more, longer than maxRetryWait (5000 ms); retry after that, or raise maxRetryWait',
    );
    expect([refused.retryAfter, refused.mayHaveBeenProcessed]).toEqual([120, false]);
    expect(offsets()).toEqual([0]);
    await vi.advanceTimersByTimeAsync(120_000);
    await settleStepwise(client.contacts.get(3));
    expect(offsets()).toEqual([0, 120_000]);
  });

  it('never pauses other calls longer than maxRetryWait, whatever the 429 asks', async () => {
    const { client, offsets } = setup(
      [v2Error(429, 'RATE_LIMIT_EXCEEDED', 'slow', {}, { 'retry-after': '999999999' }), ok],
      { maxRetryWait: 5000 },
    );
    expect(await settleStepwise(client.contacts.get(1))).toBeInstanceOf(RateLimitExceededError);
    expect(await settleStepwise(client.contacts.get(2))).toBeInstanceOf(RateLimitExceededError);
    expect(offsets()).toEqual([0]);
  });

  it('does not believe a window reset years away: a held call waits at most one window', async () => {
    const far = { 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(4_102_444_800) };
    const { client, offsets } = setup([json(200, { data: { id: 1, phone: '4915112345678' } }, far), ok]);
    await settleStepwise(client.contacts.get(1));
    await settleStepwise(client.contacts.get(2));
    expect(offsets()).toEqual([0, 65_000]);
  });
});

describe('every failure after an attempt that may have taken effect says so', () => {
  const html200 = () =>
    new Response('<html><body>Welcome to the proxy</body></html>', {
      status: 200,
      headers: { 'content-type': 'text/html' },
    });

  it('flags a send whose 200 answer is a proxy page: it was processed', async () => {
    const { client, requests } = setup([html200(), sent]);
    const error = (await settle(send(client))) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.status).toBe(200);
    expect(error.mayHaveBeenProcessed).toBe(true);
    expect(error.message).toBe(
      'POST /messages/send returned a body that is not JSON (HTTP 200; the request may have been processed; it was not retried to avoid a duplicate)',
    );
    expect(requests).toHaveLength(1);
  });

  it('does not flag a GET whose 200 answer is a proxy page: reading changes nothing', async () => {
    const { client } = setup([html200()]);
    const error = (await settle(client.contacts.get(1))) as ResponseValidationError;
    expect(error.status).toBe(200);
    expect(error.mayHaveBeenProcessed).toBe(false);
    expect(error.message).toBe('GET /contacts/1 returned a body that is not JSON');
  });

  it('flags a DELETE whose first attempt timed out and whose retry finds the contact gone', async () => {
    const { client, requests } = setup([hang(), v2Error(404, 'RESOURCE_NOT_FOUND', 'Contact not found')], {
      timeout: 1000,
    });
    const error = (await settle(client.contacts.delete(7))) as ResourceNotFoundError;
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect(error.mayHaveBeenProcessed).toBe(true);
    expect(error.message).toBe(
      'DELETE /contacts/7 failed with 404 RESOURCE_NOT_FOUND: Contact not found (an earlier attempt may have been processed)',
    );
    expect(requests).toHaveLength(2);
  });

  it('flags a PUT that timed out on every attempt', async () => {
    const { client, requests } = setup([hang()], { timeout: 1000, maxRetries: 2 });
    const error = (await settle(client.contacts.update(7, { name: 'B' }))) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.mayHaveBeenProcessed).toBe(true);
    expect(error.message).toBe(
      'PUT /contacts/7 timed out after 1000 ms; retries used up; the request may have been processed',
    );
    expect(requests).toHaveLength(3);
  });

  it('flags a PUT reset after sending, then refused: the first attempt may have been applied', async () => {
    const { client } = setup([networkError('ECONNRESET'), networkError('ECONNREFUSED')], { maxRetries: 1 });
    const error = (await settle(client.contacts.update(7, { name: 'B' }))) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.mayHaveBeenProcessed).toBe(true);
    expect(error.message).toBe(
      'PUT /contacts/7 failed to connect to api.bizmsg.test:443 (ECONNREFUSED); retries used up; an earlier attempt may have been processed',
    );
  });

  it('flags a PUT whose 5xx retries ran out, and not one rejected with a 4xx', async () => {
    const failing = setup([v2Error(503, 'SERVICE_UNAVAILABLE', 'down')], { maxRetries: 1 });
    const error = (await settle(failing.client.contacts.update(7, { name: 'B' }))) as ApiError;
    expect(error.mayHaveBeenProcessed).toBe(true);
    expect(error.message).toBe(
      'PUT /contacts/7 failed with 503 SERVICE_UNAVAILABLE: down (the request may have been processed)',
    );
    const rejected = setup([v2Error(422, 'VALIDATION_ERROR', 'bad')]);
    expect(((await settle(rejected.client.contacts.update(7, { name: 'B' }))) as ApiError).mayHaveBeenProcessed).toBe(
      false,
    );
  });
});
