// The rate-limit budget of one API key kept in a RateLimitStore, shared by every process that sends with it.
import { sha256Hex } from '../../shared/sha256.js';
import { raceAbort, withTimeout } from '../../shared/timers.js';
import type { LevelledLogger } from '../../shared/logger.js';
import { redactText } from '../errors/redact.js';
import { MAX_WINDOW_MS, readClockSkew, type RateLimitSnapshot } from '../wire/headers.js';
import type { LocalBudget } from './local-budget.js';
import type { ObservedWindow, RateLimitStore } from './store.js';
import { WakeList } from './wake-list.js';

/** Longest a store call may take; after it the client paces itself alone. */
const STORE_TIMEOUT_MS = 2000;
/** How long after a store failure one request asks the store again. */
const STORE_RETRY_MS = 1000;

/**
 * What an attempt holds while in flight: a lease of the shared store (with the rate-limit
 * values of its response, told to the store when the lease goes back), or a local slot.
 */
export interface Slot {
  readonly lease: string | undefined;
  window?: ObservedWindow;
}

/** The slot of an attempt paced in this process only. */
export const LOCAL_SLOT: Slot = Object.freeze({ lease: undefined });

/** Whether the store is failing: when to ask it again, and whether a request is asking now. */
interface Outage {
  retryAt: number;
  asking: boolean;
}

/**
 * One client's share of a rate-limit budget kept in a `RateLimitStore`, so that every
 * process sending with the key stays within one budget per server window. While the store
 * fails or is slow, requests are paced by the client's own pacer (one warning per outage);
 * every second one request asks the store again, and the first answer ends the outage.
 */
export class SharedBudget {
  readonly #store: RateLimitStore;
  readonly #local: LocalBudget;
  readonly #logger: LevelledLogger | undefined;
  readonly #apiKey: string;
  readonly #key: Promise<string>;
  readonly #leasePrefix = crypto.randomUUID();
  #leases = 0;
  /** How far the service's clock is ahead of ours, from the last `Date` header. */
  #skew = 0;
  #outage: Outage | undefined;
  /** The newest window this client has seen; a newer one wakes the requests waiting here. */
  #newestReset = 0;
  readonly #waiters = new WakeList();

  constructor(store: RateLimitStore, local: LocalBudget, apiKey: string, logger: LevelledLogger | undefined) {
    this.#store = store;
    this.#local = local;
    this.#apiKey = apiKey;
    this.#logger = logger;
    this.#key = sha256Hex(apiKey);
  }

  /** Takes a slot from the store, waiting as long as it says (`onWait` told of each wait); from the local pacer while it fails. */
  async acquire(signal: AbortSignal | undefined, onWait?: (ms: number) => void): Promise<Slot> {
    const key = await this.#key;
    for (;;) {
      signal?.throwIfAborted();
      if (!this.#mayAsk()) {
        await this.#local.acquire(signal, onWait);
        return LOCAL_SLOT;
      }
      const lease = `${this.#leasePrefix}:${++this.#leases}`;
      const asked = this.#safely(() => this.#store.acquire(key, lease, this.#now()));
      let wait: number;
      try {
        wait = checkWait(await raceAbort(bounded(asked), signal));
      } catch (error) {
        this.#giveBackIfGranted(asked, key, lease);
        if (signal?.aborted) throw signal.reason;
        this.#failed(error);
        continue;
      }
      this.#answered();
      if (wait === 0) return { lease };
      onWait?.(Math.min(wait, MAX_WINDOW_MS));
      await this.#waiters.wait(Math.min(wait, MAX_WINDOW_MS), signal);
    }
  }

  /** Gives back the slot of an attempt that ended, with what its response said of the window. */
  release(slot: Slot): void {
    const { lease, window } = slot;
    if (lease === undefined) this.#local.release();
    else this.#tell((key) => this.#store.release(key, lease, this.#now(), window));
  }

  /**
   * Takes in a response's `X-RateLimit-*` values (its `Date` header corrects our clock); the
   * store hears them with the release of the attempt's slot, one call instead of two. A 429's
   * are left out: its pause replaces what they say of the window.
   */
  observe(seen: RateLimitSnapshot, headers: Headers, status: number, slot: Slot | undefined): void {
    const now = Date.now();
    this.#skew = readClockSkew(headers, now);
    const serviceNow = now + this.#skew;
    if (slot?.lease !== undefined && status !== 429) {
      slot.window = { ...seen, resetAt: Math.min(seen.reset * 1000, serviceNow + MAX_WINDOW_MS) };
    }
    if (seen.reset > this.#newestReset) {
      this.#newestReset = seen.reset;
      this.#waiters.wakeAll();
    }
  }

  /** Holds every client of the key for `ms`, as a 429 asked. */
  pause(ms: number): void {
    const now = this.#now();
    this.#tell((key) => this.#store.pause(key, now + ms, now));
  }

  #now(): number {
    return Date.now() + this.#skew;
  }

  /** False while the store is failing, except for the one request that asks it again after a pause. */
  #mayAsk(): boolean {
    const outage = this.#outage;
    if (outage === undefined) return true;
    if (outage.asking || Date.now() < outage.retryAt) return false;
    outage.asking = true;
    return true;
  }

  #failed(error: unknown): void {
    if (this.#outage === undefined) {
      const reason = redactText(error instanceof Error ? error.message : String(error), this.#apiKey);
      this.#logger?.log(
        'warn',
        `bizmsg: the rate-limit store failed (${reason}); each process paces itself alone until the store answers again`,
      );
    }
    this.#outage = { retryAt: Date.now() + STORE_RETRY_MS, asking: false };
  }

  #answered(): void {
    if (this.#outage === undefined) return;
    this.#outage = undefined;
    this.#logger?.log('info', 'bizmsg: the rate-limit store answers again; the budget is shared again');
  }

  /** Runs a store call, turning a synchronous throw into a rejection. */
  #safely<T>(call: () => Promise<T>): Promise<T> {
    return Promise.resolve().then(call);
  }

  /** Sends a call whose answer nobody waits for; a failure starts an outage. Skipped during one. */
  #tell(call: (key: string) => Promise<void>): void {
    if (this.#outage !== undefined) return;
    void this.#key.then((key) => bounded(this.#safely(() => call(key)))).catch((error: unknown) => this.#failed(error));
  }

  /** A slot the store granted after we stopped waiting (timeout, abort) goes back at once. */
  #giveBackIfGranted(asked: Promise<unknown>, key: string, lease: string): void {
    asked.then(
      (wait) => {
        if (wait === 0) this.#tell(() => this.#store.release(key, lease, this.#now(), undefined));
      },
      () => undefined,
    );
  }
}

/** `promise`, or a rejection when it takes longer than a store call may. */
function bounded<T>(promise: Promise<T>): Promise<T> {
  return withTimeout(promise, STORE_TIMEOUT_MS, `no answer within ${STORE_TIMEOUT_MS} ms`);
}

function checkWait(wait: unknown): number {
  if (typeof wait === 'number' && Number.isFinite(wait) && wait >= 0) return wait;
  throw new TypeError(
    `acquire() answered ${typeof wait === 'number' ? wait : typeof wait}, not a number of ms to wait`,
  );
}
