import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateWindow, rateWaitText } from '../../src/bulk/cli/rate-window.js';
import type { WaitEvent } from '../../src/index.js';

// What the CLI makes of the client's `onWait`: a wait for the rate window is said only when it holds
// the sends for a noticeable time, and is over once its time is up or an answer of the next window
// shows the sends going again.

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

/** A client whose last answer said `rateLimit`, watched by a RateWindow. */
function watched(rateLimit?: { limit: number; remaining: number; reset: number }) {
  const client = { rateLimit };
  const window = new RateWindow();
  window.watch(client);
  const pacing = (ms: number): WaitEvent => ({ reason: 'pacing', ms, method: 'POST', path: '/messages', attempt: 1 });
  const said = () => {
    const wait = window.waiting();
    return wait === undefined ? undefined : rateWaitText(wait);
  };
  return { client, window, pacing, said };
}

const window0 = { limit: 2, remaining: 0, reset: T0 / 1000 + 2 };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('RateWindow', () => {
  it('says a wait that holds the sends for a second or more, until its time is up', () => {
    const { window, pacing, said } = watched(window0);
    window.onWait(pacing(1800));
    expect(said()).toBe('waiting for the rate window (2 requests per window, opens in 2 s)');
    vi.setSystemTime(T0 + 1000);
    expect(said()).toBe('waiting for the rate window (2 requests per window, opens in 1 s)');
    vi.setSystemTime(T0 + 1800);
    expect(said()).toBeUndefined();
  });

  it('says nothing of a shorter wait, nor of a cold client holding its sends for its first answer', () => {
    const cold = watched(undefined);
    cold.window.onWait(cold.pacing(2000));
    expect(cold.said()).toBeUndefined();
    const { window, pacing, said } = watched(window0);
    window.onWait(pacing(300));
    expect(said()).toBeUndefined();
  });

  it("says a 429's retry wait, and not a 503's", () => {
    const { window, pacing, said } = watched(window0);
    window.onWait({ ...pacing(5000), reason: 'retry', status: 503, attempt: 2 });
    expect(said()).toBeUndefined();
    window.onWait({ ...pacing(5000), reason: 'retry', status: 429, attempt: 2 });
    expect(said()).toBe('waiting for the rate window (2 requests per window, opens in 5 s)');
  });

  it('is over as soon as an answer of a later window with room in it comes, whatever the wait was told to last', () => {
    const { client, window, pacing, said } = watched(window0);
    window.onWait(pacing(10_000));
    // Answers of the same window, sent before the wait, change nothing.
    client.rateLimit = { ...window0 };
    expect(said()).toMatch(/opens in 10 s/);
    client.rateLimit = { limit: 2, remaining: 1, reset: window0.reset + 2 };
    expect(said()).toBeUndefined();
    // It stays over though the answer's values stay.
    expect(window.waiting()).toBeUndefined();
  });

  it('takes the end a later wait tells, once a wait is said: shorter when an answer named the end', () => {
    const { client, window, pacing, said } = watched(window0);
    window.onWait(pacing(4000));
    client.rateLimit = { limit: 2, remaining: 0, reset: window0.reset + 2 };
    window.onWait(pacing(600));
    expect(said()).toMatch(/opens in 1 s/);
    vi.setSystemTime(T0 + 600);
    expect(said()).toBeUndefined();
  });
});
