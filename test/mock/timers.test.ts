import { afterEach, describe, expect, it, vi } from 'vitest';
import { Variant2Client } from '../../src/index.js';
import { createMockServer, MockService, type MockServer } from '../../src/mock/index.js';

const MAX_TIMER_MS = 2_147_483_647;
const DAY_MS = 86_400_000;

/** Creates a campaign through the service's own request handling (no msw, no sockets). */
async function createCampaign(mock: MockService, scheduledAt: string): Promise<number> {
  const body = JSON.stringify({
    name: 'Far',
    messaging_account_id: 1,
    template_name: 'promo',
    segment_id: 1,
    scheduled_at: scheduledAt,
  });
  const response = await mock.handle(
    new Request(`${mock.baseUrl}/campaigns`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' },
      body,
    }),
  );
  return response.status;
}

const mocks: MockServer[] = [];
function newMock(options: ConstructorParameters<typeof MockService>[0] = {}): MockServer {
  const mock = createMockServer({
    variant: 2,
    seed: { contacts: [{ name: 'Ada', phone: '4915112345678' }] },
    ...options,
  });
  mocks.push(mock);
  return mock;
}
afterEach(() => {
  // close(): one a failed test left listening would hold its base URL from the next test's mock.
  for (const mock of mocks.splice(0)) mock.close();
  // A spy on a faked setTimeout would outlive the fake, and no later timer would fire.
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('timers from user input', () => {
  it('a campaign in the year 2100 arms no timer over 2147483647 ms and none while idle, without TimeoutOverflowWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    try {
      const mock = newMock();
      expect(await createCampaign(mock, '2100-01-01T00:00:00Z')).toBe(201);
      const armed = setTimeoutSpy.mock.calls.map(([, delay]) => delay);
      expect(armed).toEqual([MAX_TIMER_MS]);
      // Idle for a while: before the fix, the clock re-armed a 1 ms timer all along.
      await vi.advanceTimersByTimeAsync(200);
      const armedWhileIdle = setTimeoutSpy.mock.calls.slice(armed.length).length;
      expect(armedWhileIdle).toBe(0);
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('still runs that campaign when real time gets there, waking once per 24.8 days on the way', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const mock = newMock();
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    expect(await createCampaign(mock, new Date(Date.now() + 60 * DAY_MS).toISOString().replace(/\.\d+Z$/, 'Z'))).toBe(
      201,
    );
    await vi.advanceTimersByTimeAsync(59 * DAY_MS);
    expect(mock.store.campaigns[0]!.status).toBe('scheduled');
    await vi.advanceTimersByTimeAsync(DAY_MS);
    expect(mock.store.campaigns[0]).toMatchObject({ status: 'completed', sent_count: 1 });
    const delays = setTimeoutSpy.mock.calls.map(([, delay]) => delay as number);
    expect(delays.every((delay) => delay <= MAX_TIMER_MS)).toBe(true);
    // Armed for 24.8 days at creation, again after waking early at day 24.8; from day 49.7 the rest fits one timer.
    expect(delays.filter((delay) => delay === MAX_TIMER_MS)).toHaveLength(2);
    expect(delays.length).toBeLessThan(10);
  });

  it('runs the campaign when clock.advance gets there', async () => {
    const mock = newMock();
    expect(await createCampaign(mock, '2100-01-01T00:00:00Z')).toBe(201);
    await mock.clock.advance(Date.parse('2100-01-01T00:00:01Z') - mock.clock.now());
    expect(mock.store.campaigns[0]).toMatchObject({ status: 'completed', sent_count: 1 });
  });

  it('clock.advance refuses to move past the latest date a timestamp shows (9999-12-31), or by a fraction of a ms', async () => {
    const mock = newMock();
    for (const ms of [Number.MAX_VALUE, 8.64e15, 1e15]) {
      await expect(mock.clock.advance(ms)).rejects.toThrow(
        `clock.advance(${ms}) would move the clock past the latest date (9999-12-31).`,
      );
    }
    await expect(mock.clock.advance(1.5)).rejects.toThrow(
      'clock.advance(ms) needs a whole number of ms >= 0, got 1.5.',
    );
    expect(mock.clock.date().toISOString()).toMatch(/^20\d\d-/);
    await mock.clock.advance(Date.UTC(9999, 11, 31) - mock.clock.now());
    expect(mock.clock.date().toISOString()).toMatch(/^9999-12-31T00:00:00\.\d{3}Z$/);
  });

  it('rejects fault delays and webhook time-outs no timer can hold', () => {
    const mock = newMock();
    for (const delay of [MAX_TIMER_MS + 1, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => mock.inject({ delay })).toThrow(
        `A fault's \`delay\` must be a number of milliseconds from 0 to 2147483647, got ${delay}.`,
      );
    }
    expect(() => mock.inject({ delay: MAX_TIMER_MS, route: 'GET /account/me' })).not.toThrow();
    for (const webhookTimeout of [MAX_TIMER_MS + 1, 0, Number.NaN]) {
      expect(() => new MockService({ webhookTimeout })).toThrow(
        `The \`webhookTimeout\` option must be a number of milliseconds from 1 to 2147483647, got ${webhookTimeout}.`,
      );
    }
  });
});

/** Sends a text to `to` through the service's own request handling; answers the message id. */
async function sendText(mock: MockService, to = '+4915112345678'): Promise<string> {
  const response = await mock.handle(
    new Request(`${mock.baseUrl}/messages/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } }),
    }),
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

describe('a stopped clock', () => {
  it('stands still: nothing falls due in real time, advance shows each state in between, start runs on from there', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const mock = newMock();
    mock.clock.stop();
    expect(mock.clock.stopped).toBe(true);
    const frozen = mock.clock.now();
    const id = await sendText(mock);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(mock.clock.now()).toBe(frozen);
    expect(mock.store.messages.get(id)!.status).toBe('sent');
    expect(mock.clock.pending().map((task) => task.at - frozen)).toEqual([1000, 5000]);

    await mock.clock.advance(999);
    expect(mock.store.messages.get(id)!.status).toBe('sent');
    await mock.clock.advance(1);
    expect(mock.store.messages.get(id)).toMatchObject({
      status: 'delivered',
      delivered_at: new Date(frozen + 1000).toISOString(),
    });
    // Still stopped after advance: the read receipt (5 s after the send) waits, however long real time goes on.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(mock.clock.now()).toBe(frozen + 1000);
    expect(mock.store.messages.get(id)!.status).toBe('delivered');

    mock.clock.start();
    expect(mock.clock.stopped).toBe(false);
    expect(mock.clock.now()).toBe(frozen + 1000);
    await vi.advanceTimersByTimeAsync(3999);
    expect(mock.store.messages.get(id)!.status).toBe('delivered');
    await vi.advanceTimersByTimeAsync(1);
    expect(mock.store.messages.get(id)).toMatchObject({
      status: 'read',
      read_at: new Date(frozen + 5000).toISOString(),
    });
  });

  it('runs on start() what fell due while it stood (advance(0) too), and stop()/start() twice change nothing more', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const mock = newMock();
    const past = new Date(Date.now() - 60_000).toISOString();
    mock.clock.stop();
    mock.clock.stop();
    expect(await createCampaign(mock, past)).toBe(201);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(mock.store.campaigns[0]!.status).toBe('scheduled');
    await mock.clock.advance(0);
    expect(mock.store.campaigns[0]!.status).toBe('completed');

    const id = await sendText(mock);
    const at = mock.clock.now();
    mock.clock.start();
    mock.clock.start();
    expect(mock.clock.now()).toBe(at);
    await vi.advanceTimersByTimeAsync(1000);
    expect(mock.store.messages.get(id)!.status).toBe('delivered');
  });

  it('a reset lets it run again at real time: a message sent after it is delivered as real time passes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const mock = newMock();
    mock.clock.stop();
    await mock.clock.advance(3_600_000);
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    await sendText(mock);
    expect(setTimeoutSpy).not.toHaveBeenCalled();
    mock.reset();
    expect(mock.clock.stopped).toBe(false);
    expect(mock.clock.now()).toBe(Date.now());
    const id = await sendText(mock);
    await vi.advanceTimersByTimeAsync(999);
    expect([mock.clock.now(), mock.store.messages.get(id)!.status]).toEqual([Date.now(), 'sent']);
    await vi.advanceTimersByTimeAsync(1);
    expect(mock.store.messages.get(id)!.status).toBe('delivered');
  });

  it('a reset of a closed mock leaves its clock paused at real time until listen(), then it runs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const mock = newMock();
    mock.listen();
    mock.clock.stop();
    mock.close();
    mock.reset();
    expect([mock.clock.stopped, mock.clock.now()]).toEqual([true, Date.now()]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(mock.clock.now()).toBe(Date.now() - 1000);
    mock.listen();
    expect(mock.clock.stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(mock.clock.now()).toBe(Date.now() - 1000);
    mock.close();
  });

  // The report: with beforeEach(() => mock.reset()), one test's clock.stop() froze every later test.
  it('a reset after clock.stop() runs on real time: a client sees its message delivered, a listening mock in real time', async () => {
    const mock = newMock();
    mock.listen();
    try {
      mock.clock.stop();
      mock.reset();
      const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl, maxRetries: 0 });
      const before = mock.clock.now();
      const { id } = await client.messages.sendText({ to: '+4915112345678', messaging_account_id: 1, body: 'Hi' });
      // Real time passing delivers it (1 s after the send); a frozen clock never would.
      await vi.waitFor(() => expect(mock.store.messages.get(id)!.status).toBe('delivered'), {
        timeout: 15_000,
        interval: 50,
      });
      expect(mock.clock.now() - before).toBeGreaterThanOrEqual(1000);
    } finally {
      mock.close();
    }
  }, 20_000);

  it('close() stops it and listen() lets it run again; a clock the user stopped stays stopped across listen()', async () => {
    const mock = newMock();
    mock.listen();
    mock.close();
    expect(mock.clock.stopped).toBe(true);
    mock.listen();
    expect(mock.clock.stopped).toBe(false);
    mock.clock.stop();
    mock.close();
    mock.listen();
    expect(mock.clock.stopped).toBe(true);
    mock.close();
  });
});

describe('the history option', () => {
  it('keeps as many requests as it says, and rejects a count that is not a whole number from 0 to 10000000', async () => {
    const mock = new MockService({ variant: 2, history: { requests: 2 } });
    for (let i = 0; i < 3; i++) await mock.handle(new Request(`${mock.baseUrl}/account/me`));
    expect(mock.requests().length).toBe(2);
    mock.pause();
    for (const [history, shown] of [
      [{ requests: -1 }, 'history.requests` option must be an integer from 0 to 10000000, got -1.'],
      [{ deliveries: 1.5 }, 'history.deliveries` option must be an integer from 0 to 10000000, got 1.5.'],
      [{ deliveries: 10_000_001 }, 'history.deliveries` option must be an integer from 0 to 10000000, got 10000001.'],
      [{ requests: '5' }, 'history.requests` option must be an integer from 0 to 10000000, got "5".'],
    ] as const) {
      expect(() => new MockService({ history: history as { requests?: number } })).toThrow(`The \`${shown}`);
    }
  });
});

describe('pause() and resume()', () => {
  it('resume() starts the clock pause() stopped, and leaves one the user stopped stopped', () => {
    const mock = new MockService({ variant: 2 });
    mock.pause();
    expect(mock.clock.stopped).toBe(true);
    mock.resume();
    expect(mock.clock.stopped).toBe(false);
    mock.clock.stop();
    mock.pause();
    mock.resume();
    expect(mock.clock.stopped).toBe(true);
    mock.clock.start();
    mock.pause();
  });
});
