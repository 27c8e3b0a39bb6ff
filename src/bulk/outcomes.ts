// bulkOutcomes: one row per recipient of a bulk job, from its journal (what the send did), advanced
// by the statuses the webhooks brought (delivered, read, failed and why) when a tracker is given.
import { showValue } from '../shared/describe.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { hasMethods } from '../shared/guards.js';
import { BulkJournalMismatchError } from './errors.js';
import { isNote, type BulkJournal, type JournalEntry } from './journal.js';
import type { BulkFailure, BulkStatus } from './types.js';

/** What became of a recipient: its send's status, or how far its message got when the statuses say. */
export type BulkOutcomeStatus = BulkStatus | 'delivered' | 'read';

/** One recipient of a job and what became of its message. */
export interface BulkOutcome {
  /** The recipient's key: its number in E.164, unless `key(recipient)` said otherwise. */
  readonly key: string;
  /** The number the message was for, in E.164 when it is valid, else as given. */
  readonly to: string;
  /**
   * The send's status (`sent`, `failed`, `unknown`, `skipped`, `suppressed`), advanced by the
   * tracker's record of the message when it has one: `delivered`, `read`, or `failed` with the
   * service's error.
   */
  readonly outcome: BulkOutcomeStatus;
  /** The message's id, when it was sent. */
  readonly messageId?: string;
  /** Why it failed, is unknown or was suppressed: the send's error, or the failure the statuses carried. */
  readonly error?: BulkFailure;
  /** When the message was sent, as the statuses say (ISO 8601). */
  readonly sentAt?: string;
  /** When it was delivered, as the statuses say (ISO 8601). */
  readonly deliveredAt?: string;
  /** When it was read, as the statuses say (ISO 8601). */
  readonly readAt?: string;
  /** When it failed, as the statuses say (ISO 8601). */
  readonly failedAt?: string;
}

/**
 * What `bulkOutcomes` reads of a message's record in a status tracker or store: a `StatusRecord`
 * of `bizmsg/webhooks` is one.
 */
export interface BulkStatusRecord {
  /** The furthest status the webhooks brought. */
  status: 'sent' | 'delivered' | 'read' | 'failed';
  /** When it was sent (ISO 8601), when an event said. */
  sentAt?: string | undefined;
  /** When it was delivered (ISO 8601), when an event said. */
  deliveredAt?: string | undefined;
  /** When it was read (ISO 8601), when an event said. */
  readAt?: string | undefined;
  /** When it failed (ISO 8601), when an event said. */
  failedAt?: string | undefined;
  /** What the failure event said went wrong, when it said. */
  error?:
    | {
        /** The service's or channel's code, e.g. `'UNDELIVERABLE'`. */
        code?: string | undefined;
        /** Its words. */
        message?: string | undefined;
      }
    | undefined;
}

/** Where the statuses of the messages are: a status tracker, or the store it keeps them in (`fileStatusStore`, `redisStatusStore`). */
export interface BulkStatusSource {
  /** The record of a message, when one is held. */
  get(id: string): Promise<BulkStatusRecord | undefined>;
}

/** Options of `bulkOutcomes`. */
export interface BulkOutcomesOptions {
  /** The job's id: a journal of another job is refused (`BulkJournalMismatchError`). */
  id: string;
  /** Where the webhooks' statuses are kept (`createStatusTracker()`, `fileStatusStore(path)`...): outcomes advance by them. */
  tracker?: BulkStatusSource | undefined;
}

/**
 * One row per recipient of the job `id` in `journal`, read when no run has the journal: each
 * key's outcome, and the rows of its last run that are no key's (an invalid number, a repeat),
 * advanced by `tracker`'s record of each sent message.
 *
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 *
 * const tracker = createStatusTracker({ store: fileStatusStore('./statuses') });
 * const rows = bulkOutcomes(fileJournal('./reminders.journal'), { id: 'reminders-2026-12', tracker });
 * await writeFile('outcomes.csv', await toCsv(rows));
 * ```
 */
export function bulkOutcomes(journal: BulkJournal, options: BulkOutcomesOptions): AsyncGenerator<BulkOutcome> {
  // Checked now, before the first read: a bad argument throws where it was given.
  const { id, tracker } = checkOptions(journal, options);
  return outcomes(journal, id, tracker);
}

async function* outcomes(
  journal: BulkJournal,
  id: string,
  tracker: BulkStatusSource | undefined,
): AsyncGenerator<BulkOutcome> {
  const header = await journal.job?.();
  if (header !== undefined && header.id !== id) throw new BulkJournalMismatchError(id, header.id);
  let lastRun = header?.runs;
  if (lastRun === undefined)
    for await (const [key, entry] of journal.entries()) if (isNote(key)) lastRun = Math.max(lastRun ?? 0, entry.run);
  for await (const [key, entry] of journal.entries()) {
    if (isNote(key) && entry.run !== lastRun) continue;
    yield outcomeOf(
      entry.key ?? key,
      entry,
      entry.messageId === undefined ? undefined : await tracker?.get(entry.messageId),
    );
  }
}

/** The outcome of a key from its journal entry, advanced by its message's record. */
function outcomeOf(key: string, entry: JournalEntry, record: BulkStatusRecord | undefined): BulkOutcome {
  const sent: BulkStatus = entry.status === 'claimed' ? 'unknown' : entry.status;
  const advanced = record !== undefined && entry.status === 'sent' && record.status !== 'sent';
  const error = advanced && record.status === 'failed' ? failureOf(record) : entry.error;
  return {
    key,
    to: entry.to,
    outcome: advanced ? record.status : sent,
    ...(entry.messageId === undefined ? {} : { messageId: entry.messageId }),
    ...(error === undefined ? {} : { error }),
    ...times(record),
  };
}

/** The failure a `message.failed` event carried, in a bulk error's words. */
function failureOf(record: BulkStatusRecord): BulkFailure {
  return {
    code: record.error?.code ?? 'FAILED',
    message: record.error?.message ?? 'the service said the message failed',
  };
}

function times(record: BulkStatusRecord | undefined): Partial<BulkOutcome> {
  if (record === undefined) return {};
  const { sentAt, deliveredAt, readAt, failedAt } = record;
  return {
    ...(sentAt === undefined ? {} : { sentAt }),
    ...(deliveredAt === undefined ? {} : { deliveredAt }),
    ...(readAt === undefined ? {} : { readAt }),
    ...(failedAt === undefined ? {} : { failedAt }),
  };
}

function checkOptions(journal: BulkJournal, options: BulkOutcomesOptions): BulkOutcomesOptions {
  if (!hasMethods(journal, ['entries']))
    throw new InvalidArgumentError(
      `bulkOutcomes(journal, options): \`journal\` must be memoryJournal(), fileJournal(path) or a BulkJournal, got ${showValue(journal)}.`,
    );
  const { id, tracker } = (options ?? {}) as Partial<BulkOutcomesOptions>;
  if (typeof id !== 'string' || id === '')
    throw new InvalidArgumentError(`bulkOutcomes: \`id\` must be the job's id, got ${showValue(id)}.`);
  if (tracker !== undefined && !hasMethods(tracker, ['get']))
    throw new InvalidArgumentError(
      `bulkOutcomes: \`tracker\` must be a status tracker or status store (with get(id)), got ${showValue(tracker)}.`,
    );
  return { id, ...(tracker === undefined ? {} : { tracker }) };
}
