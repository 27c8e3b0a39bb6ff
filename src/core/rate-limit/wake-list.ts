// Waits that end after their time or when what they wait on changes.
import { sleep } from '../../shared/timers.js';

/**
 * Waits that end after their time or when something they wait on changes (`wakeAll`), whichever
 * comes first; an abort of the caller's signal rejects with its reason.
 */
export class WakeList {
  readonly #waiters = new Set<() => void>();

  /** Resolves after `ms` (clamped to what a timer can hold), or at the next `wakeAll()`. */
  wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return sleep(ms, signal, this.#waiters);
  }

  /** Ends every wait under way. */
  wakeAll(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}
