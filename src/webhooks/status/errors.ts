// The errors of waiting for a message's status.
import { BizMsgError } from '../../shared/errors.js';
import type { StatusGoal, StatusRecord } from './record.js';

/** The message failed before it reached the status `waitFor` waited for; `record` holds the failure. */
export class MessageFailedError extends BizMsgError {
  /** The message's record, with `failedAt` and the failure's `error` when the event carried them. */
  readonly record: StatusRecord;

  constructor(record: StatusRecord, goal: StatusGoal) {
    // The failure's own words, without their final period: the sentence ends with one.
    const said = [record.error?.code, record.error?.message]
      .filter(Boolean)
      .join(' ')
      .replace(/[.\s]+$/, '');
    const why = said === '' ? '' : `: ${said}`;
    super(
      `Message ${record.id} failed${record.failedAt === undefined ? '' : ` at ${record.failedAt}`} before it was ${goal}${why}.`,
    );
    this.record = record;
  }

  override get name(): string {
    return 'MessageFailedError';
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), record: this.record };
  }
}

/**
 * `waitFor` ran out of time before the message reached its status. Not the clients'
 * `TimeoutError`: that one is a `ConnectionError` about a request, and nothing failed to send here.
 */
export class StatusTimeoutError extends BizMsgError {
  /** The message id waited for. */
  readonly id: string;
  /** What was waited for. */
  readonly goal: StatusGoal;
  /** The message's record when time ran out; undefined when no send or event of it was seen. */
  readonly record: StatusRecord | undefined;

  constructor(id: string, goal: StatusGoal, timeout: number, record: StatusRecord | undefined) {
    const now = record === undefined ? 'nothing is known of it yet (no track, no event)' : `it is ${record.status}`;
    super(`Message ${id} was not ${goal} within ${timeout} ms: ${now}.`);
    this.id = id;
    this.goal = goal;
    this.record = record;
  }

  override get name(): string {
    return 'StatusTimeoutError';
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), id: this.id, goal: this.goal, record: this.record };
  }
}

/**
 * The folder of a `fileStatusStore` is open in another store: another process, or another
 * `fileStatusStore` of this one. LevelDB lets one process at a time have a folder.
 */
export class StatusStoreBusyError extends BizMsgError {
  /** The store's folder, as it was given. */
  readonly path: string;

  constructor(path: string, options?: ErrorOptions) {
    super(
      `The status store at ${path} is open in another process (or another fileStatusStore of this one): a folder serves one process at a time. Close the other (store.close() or tracker.close()) or let it exit, then try again; for several processes at once use redisStatusStore from bizmsg/redis.`,
      options,
    );
    this.path = path;
  }

  override get name(): string {
    return 'StatusStoreBusyError';
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), path: this.path };
  }
}
