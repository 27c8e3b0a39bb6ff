import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Variant2Client, type WaitEvent } from '../../../src/index.js';
import { createMockServer } from '../../../src/mock/index.js';
import { useMocks } from '../../helpers/mock-api.js';

// What the `onWait` option hears of pacing, through the client against the in-process mock on a
// fake clock: each request the window really holds, once, with how long it is held; nothing for a
// cold client's hold until its first answer (at most 2 s, in fact the first answer's time), which
// once told 2 s waits that never happened (22 for 12 sends done in 57 ms).

const WINDOW_MS = 10_000;
const mock = createMockServer({
  variant: 2,
  baseUrl: 'https://onwait.bizmsg.test/api/v1',
  plans: { two: { rateLimit: 2, window: WINDOW_MS } },
});
useMocks(mock);

/** 1 s into a window of the mock (its windows are aligned to WINDOW_MS on its clock). */
const T0 = Date.UTC(2026, 10, 21, 12, 0, 0) + 1000;

beforeAll(async () => {
  // ky and the mock's handlers load at the first request, on real time: not inside a test's fake clock.
  await new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl, logLevel: 'off' }).account.me();
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Runs `promise` to its end, turning the event loop; with `clockMoves` the fake clock moves a
 * millisecond whenever nothing else can, else it stands still (so no wait can have ended by its time).
 */
async function settle<T>(promise: Promise<T>, clockMoves: boolean): Promise<T> {
  let done = false;
  const result = promise.finally(() => {
    done = true;
  });
  for (let turns = 0; !done; turns++) {
    if (!clockMoves && turns > 10_000) throw new Error('still waiting with the clock standing still');
    for (let turn = 0; turn < 4 && !done; turn++) await new Promise((resolve) => setImmediate(resolve));
    if (!done && clockMoves) await vi.advanceTimersByTimeAsync(1);
  }
  return result;
}

function client(apiKey = mock.apiKey) {
  const waits: Array<Pick<WaitEvent, 'reason' | 'ms'> & { at: number }> = [];
  const made = new Variant2Client({
    apiKey,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    onWait: ({ reason, ms }) => void waits.push({ reason, ms, at: Date.now() - T0 }),
  });
  const send = () => made.messages.sendText({ to: '4915112345678', messaging_account_id: 1, body: 'x' });
  const burst = (sends: number, clockMoves = true) =>
    settle(Promise.all(Array.from({ length: sends }, send)), clockMoves);
  return { waits, burst };
}

/** When each send reached the mock, ms after T0. */
const sentAt = () =>
  mock
    .requests()
    .filter((request) => request.method === 'POST')
    .map((request) => new Date(request.at).getTime() - T0);

describe('onWait for pacing', () => {
  it('hears nothing from 12 concurrent sends of a cold client that the window has room for', async () => {
    const { waits, burst } = client();
    // The clock stands still: the other 11 go when the first answer comes, no wait of any length ends first.
    const sent = await burst(12, false);
    expect(sent.map((message) => message.status)).toEqual(Array(12).fill('sent'));
    expect(sentAt()).toEqual(Array(12).fill(0));
    expect(waits).toEqual([]);
  });

  it('hears once of each wait of a request the spent window holds, with the time until it opens', async () => {
    const { waits, burst } = client(mock.createKey({ plan: 'two' }));
    await burst(5);
    // Two go in the window that has 9 s left, two when the next opens, the last when the one after opens.
    const opens = WINDOW_MS - 1000;
    expect(sentAt()).toEqual([0, 0, opens, opens, opens + WINDOW_MS]);
    expect(waits).toEqual([
      ...Array(3).fill({ reason: 'pacing', ms: opens, at: 0 }),
      { reason: 'pacing', ms: WINDOW_MS, at: opens },
    ]);
  });
});
