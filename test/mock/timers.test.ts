import { afterEach, describe, expect, it, vi } from 'vitest';
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

const mocks: MockService[] = [];
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
  for (const mock of mocks.splice(0)) mock.stop();
  vi.useRealTimers();
});

describe('timers from user input', () => {
  it('a campaign in the year 2100 arms no timer over 2147483647 ms and none while idle, without TimeoutOverflowWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    try {
      const mock = newMock();
      expect(await createCampaign(mock, '2100-01-01T00:00:00Z')).toBe(201);
      const armed = setTimeoutSpy.mock.calls.map(([, delay]) => delay);
      expect(armed).toEqual([MAX_TIMER_MS]);
      // Idle for a while: before the fix, the clock re-armed a 1 ms timer all along.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const armedWhileIdle = setTimeoutSpy.mock.calls.slice(armed.length + 1).length;
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
