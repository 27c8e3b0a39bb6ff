// Waits that end after their time or when what they wait on changes.
import { MAX_TIMER_MS } from '../../shared/timers.js';

/**
 * Waits that end after their time or when something they wait on changes (`wakeAll`), whichever
 * comes first; an abort of the caller's signal rejects with its reason.
 */
export class WakeList {
  readonly #waiters = new Set<() => void>();

  /** Resolves after `ms` (clamped to what a timer can hold), or at the next `wakeAll()`. */
  wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#waiters.delete(wake);
      };
      const wake = () => {
        settle();
        resolve();
      };
      const onAbort = () => {
        settle();
        reject(signal!.reason as Error);
      };
      const timer = setTimeout(wake, Math.min(MAX_TIMER_MS, Math.max(0, ms)));
      this.#waiters.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Ends every wait under way. */
  wakeAll(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}
