import { vi } from 'vitest';

/**
 * Runs `promise` to completion under fake timers, advancing one timer at a time and stopping as
 * soon as it is done, so that timestamps taken meanwhile are the ones the code chose.
 */
export async function settleStepwise<T>(promise: Promise<T>): Promise<T | Error> {
  let done = false;
  const result = promise
    .catch((e: unknown) => e as Error)
    .finally(() => {
      done = true;
    });
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    if (!done) await vi.advanceTimersToNextTimerAsync();
  }
  return result;
}
