// createStatusTracker: what happened to each message, fed by sends, webhooks and status reads.
import { showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { isRecord } from '../../shared/guards.js';
import { checkMs, MAX_TIMER_MS } from '../../shared/timers.js';
import type { WebhookEvent } from '../../schemas/webhook-event.js';
import { changeOfEvent, isMessageStatusEvent } from './message-event.js';
import { changeOfMessage, type TrackableMessage } from './message-change.js';
import { memoryStatusStore } from './memory-store.js';
import type { StatusGoal, StatusRecord } from './record.js';
import { isStatusStore, type StatusStore, type StatusSummary } from './store.js';
import { waitForStatus } from './wait-for.js';

/** Options of `createStatusTracker`. */
export interface StatusTrackerOptions {
  /**
   * Where the records are kept: `memoryStatusStore()` (the default: this process, bounded), or
   * `redisStatusStore(redis)` from `bizmsg/redis`, shared with the receivers of other processes.
   */
  store?: StatusStore | undefined;
}

/** Options of `waitFor`. */
export interface WaitForOptions {
  /**
   * How long to wait, in ms (default 60,000); then it rejects with `StatusTimeoutError`.
   * @default 60000
   */
  timeout?: number | undefined;
  /** Stops waiting: the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/** A client that can read a message's status (Variant 1's `client.messages.status(id)`). */
export interface StatusSource {
  /** The client's message endpoints. */
  messages: {
    /** Reads one message's status (`GET /messages/{id}/status`). */
    status(id: string): PromiseLike<TrackableMessage>;
  };
}

/** Follows each message's status: see `createStatusTracker`. */
export interface StatusTracker {
  /** Starts following a sent message (what the send resolved with); resolves with its record. */
  track(message: TrackableMessage): Promise<StatusRecord>;
  /**
   * Applies a verified event: message.sent, delivered, read and failed change their message's
   * record (which it resolves with), read as the service sent them (the id from `message_id` or
   * `id`, the status from the kind); other kinds, and a message event that names no message, are
   * ignored (undefined).
   */
  apply(event: WebhookEvent): Promise<StatusRecord | undefined>;
  /** The record of a message, or undefined when neither a send nor an event of it was seen (or it expired). */
  get(id: string): Promise<StatusRecord | undefined>;
  /**
   * Resolves with the record once the message is `delivered` (or read), `read`, or `final` (read
   * or failed); rejects with `MessageFailedError` when it fails first and `StatusTimeoutError`
   * when time runs out. An id not seen yet is waited for: its events may come later.
   */
  waitFor(id: string, goal: StatusGoal, options?: WaitForOptions): Promise<StatusRecord>;
  /** Counts the messages of `ids` (each once) by status (`unknown`: no record), or every message followed. */
  summary(ids?: Iterable<string>): Promise<StatusSummary>;
  /**
   * Reads the message's status from the service (`client.messages.status(id)`, Variant 1,
   * paced like every call of that client) and merges it; resolves with the record.
   */
  refresh(id: string, client: StatusSource): Promise<StatusRecord>;
  /** Lets go of what the store opened (a Redis subscription); the tracker may be used again after. */
  close(): Promise<void>;
}

const GOALS: readonly StatusGoal[] = ['delivered', 'read', 'final'];
const DEFAULT_WAIT_MS = 60_000;

/**
 * A status tracker: `track(message)` after each send, `apply(event)` for each verified webhook
 * event (or give it to a receiver as its `tracker` option), then `get`, `waitFor` and `summary`.
 * A status only moves forward (sent < delivered < read; failed is final), repeats change
 * nothing, an event that comes before its `track` is kept, and times come from the events.
 *
 * @example
 * ```ts
 * const tracker = createStatusTracker();
 * app.post('/webhooks', webhookMiddleware({ secret, tracker }));
 * const sent = await client.messages.sendText({ to: '+4915112345678', messaging_account_id: 1, body: 'Shipped' });
 * await tracker.track(sent);
 * const { deliveredAt } = await tracker.waitFor(sent.id, 'delivered', { timeout: 30_000 });
 * ```
 */
export function createStatusTracker(options: StatusTrackerOptions = {}): StatusTracker {
  if (!isRecord(options))
    throw new InvalidArgumentError(`createStatusTracker: options must be an object, got ${showValue(options)}.`);
  if (options.store !== undefined && !isStatusStore(options.store)) {
    throw new InvalidArgumentError(
      'createStatusTracker: `store` must be a status store (merge, get, summary, watch, close), e.g. memoryStatusStore() or redisStatusStore(redis).',
    );
  }
  return new Tracker(options.store ?? memoryStatusStore());
}

class Tracker implements StatusTracker {
  readonly #store: StatusStore;

  constructor(store: StatusStore) {
    this.#store = store;
  }

  track(message: TrackableMessage): Promise<StatusRecord> {
    return this.#merge(() => changeOfMessage(message, 'tracker.track', true));
  }

  async apply(event: WebhookEvent): Promise<StatusRecord | undefined> {
    if (!isRecord(event) || typeof event.event !== 'string')
      throw new InvalidArgumentError(`tracker.apply needs a parsed webhook event, got ${showValue(event)}.`);
    const change = isMessageStatusEvent(event) ? changeOfEvent(event) : undefined;
    return change === undefined ? undefined : this.#store.merge(change);
  }

  async get(id: string): Promise<StatusRecord | undefined> {
    return this.#store.get(checkId(id, 'tracker.get'));
  }

  waitFor(id: string, goal: StatusGoal, options: WaitForOptions = {}): Promise<StatusRecord> {
    try {
      const { timeout, signal } = checkWaitOptions(options);
      if (!GOALS.includes(goal))
        throw new InvalidArgumentError(
          `tracker.waitFor: the status must be one of ${GOALS.join(', ')}, got ${showValue(goal)}.`,
        );
      return waitForStatus(this.#store, checkId(id, 'tracker.waitFor'), goal, timeout, signal);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  summary(ids?: Iterable<string>): Promise<StatusSummary> {
    if (ids === undefined) return this.#store.summary();
    if (typeof ids !== 'object' || ids === null || !(Symbol.iterator in ids))
      return Promise.reject(
        new InvalidArgumentError(`tracker.summary: \`ids\` must be an array of message ids, got ${showValue(ids)}.`),
      );
    // An id given twice is one message.
    return this.#store.summary([...new Set(ids)].map((id) => checkId(id, 'tracker.summary')));
  }

  async refresh(id: string, client: StatusSource): Promise<StatusRecord> {
    checkId(id, 'tracker.refresh');
    if (typeof (client as Partial<StatusSource> | undefined)?.messages?.status !== 'function') {
      throw new InvalidArgumentError(
        'tracker.refresh needs a client with messages.status(id): a Variant1Client (Variant 2 has no status endpoint; its webhooks are the source).',
      );
    }
    const answer = await client.messages.status(id);
    return this.#merge(() => ({ ...changeOfMessage({ ...answer, id }, 'tracker.refresh', false), id }));
  }

  async close(): Promise<void> {
    return this.#store.close();
  }

  /** Merges a change read from the caller's input: a bad input rejects before the store is touched. */
  async #merge(read: () => Parameters<StatusStore['merge']>[0]): Promise<StatusRecord> {
    return this.#store.merge(read());
  }
}

function checkId(id: unknown, caller: string): string {
  if (typeof id !== 'string' || id === '')
    throw new InvalidArgumentError(`${caller} needs a message id (a non-empty string), got ${showValue(id)}.`);
  return id;
}

function checkWaitOptions(options: WaitForOptions): { timeout: number; signal: AbortSignal | undefined } {
  if (!isRecord(options))
    throw new InvalidArgumentError(`tracker.waitFor: options must be an object, got ${showValue(options)}.`);
  const timeout = checkMs('tracker.waitFor: `timeout`', options.timeout, DEFAULT_WAIT_MS, {
    min: 0,
    max: MAX_TIMER_MS,
  });
  const { signal } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw new InvalidArgumentError(`tracker.waitFor: \`signal\` must be an AbortSignal, got ${showValue(signal)}.`);
  return { timeout, signal };
}
