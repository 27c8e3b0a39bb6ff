// The journal of a bulk job: per recipient key, claimed before its request leaves, then its
// outcome; notes of the rows that are no key's outcome; and the job it belongs to. The in-memory
// one lives here; fileJournal survives a crash.
import { BulkJournalBusyError, BulkJournalMismatchError } from './errors.js';
import type { BulkFailure } from './types.js';

/**
 * What the journal holds for one key: claimed (a request may be on its way), or its outcome. Or a
 * note: a row of a run that is no key's outcome (a row that cannot be sent, a repeat of a key).
 */
export interface JournalEntry {
  /** The number the message is for, in E.164 when it is valid, else as given. */
  readonly to: string;
  /** `claimed` before the send leaves (a claim never resolved reads as `unknown`), then how it ended. */
  readonly status: 'claimed' | 'sent' | 'failed' | 'unknown' | 'skipped' | 'suppressed';
  /** The message's id, once it was sent. */
  readonly messageId?: string;
  /** Why it failed, is unknown or was suppressed. */
  readonly error?: BulkFailure;
  /** The run of the job that last read this key (a key read twice in one run is a repeat). */
  readonly run: number;
  /** A note's recipient key (a note is stored under a key of its own). */
  readonly key?: string;
}

/**
 * Where a bulk job records its claims and outcomes (`memoryJournal`, `fileJournal`, or your own).
 * It serves one run at a time; `claim`, `put` and `delete` resolve only once the entry would
 * survive the process being killed (`fileJournal`: once it is synced to disk).
 */
export interface BulkJournal {
  /**
   * Opens the journal for job `id` and starts a run: resolves with the run's number (1, 2, …);
   * refuses another job's journal (`BulkJournalMismatchError`) and a journal that serves a run
   * already (`BulkJournalBusyError`), changing nothing.
   */
  open(id: string): Promise<number>;
  /** The entry of `key`, if any. */
  get(key: string): Promise<JournalEntry | undefined>;
  /** Records `entry` for `key` unless `key` has an entry, in one step: resolves with the entry it had (then nothing changed), or undefined. */
  claim(key: string, entry: JournalEntry): Promise<JournalEntry | undefined>;
  /** Records the entry of `key`, durably. */
  put(key: string, entry: JournalEntry): Promise<void>;
  /** Forgets `key` (its claim was taken but its request never left). */
  delete(key: string): Promise<void>;
  /** Every key and entry the journal holds (opened for the reading when no run has it). */
  entries(): AsyncIterable<readonly [string, JournalEntry]> | Iterable<readonly [string, JournalEntry]>;
  /** Ends the run; `open` may start another. */
  close(): Promise<void>;
  /**
   * The job the journal holds and how many runs it had, without starting a run (undefined for an
   * empty journal): what `bulkOutcomes` and `bizmsg bulk report` check the job's id against. A
   * journal of your own may leave it out (then no id is checked).
   */
  job?(): Promise<JournalHeader | undefined>;
}

/** The job and run count a journal keeps besides its entries. */
export interface JournalHeader {
  /** The id of the job the journal belongs to. */
  readonly id: string;
  /** How many runs of the job have started, this one included. */
  readonly runs: number;
}

/** The header of the next run of job `id`, or the typed refusal when the journal holds another job. */
export function nextRun(id: string, header: JournalHeader | undefined): JournalHeader {
  if (header !== undefined && header.id !== id) throw new BulkJournalMismatchError(id, header.id);
  return { id, runs: (header?.runs ?? 0) + 1 };
}

/** Notes are stored under keys of their own, which no recipient key is expected to start with. */
const NOTE = '\u0000note:';

/** The journal key of the note of row `index` (from 1) of run `run`. */
export function noteKey(run: number, index: number): string {
  return `${NOTE}${run}:${index}`;
}

/** True for the journal key of a note. */
export function isNote(key: string): boolean {
  return key.startsWith(NOTE);
}

/** What a memory journal's errors call it. */
const MEMORY = 'memoryJournal()';

/** A journal in memory: resumes within one process (it does not survive a crash; `fileJournal` does). */
export function memoryJournal(): BulkJournal {
  const records = new Map<string, JournalEntry>();
  let header: JournalHeader | undefined;
  let busy = false;
  return {
    open(id) {
      try {
        if (busy) throw new BulkJournalBusyError(MEMORY);
        header = nextRun(id, header);
        busy = true;
        return Promise.resolve(header.runs);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    get: (key) => Promise.resolve(records.get(key)),
    claim(key, entry) {
      const found = records.get(key);
      if (found === undefined) records.set(key, entry);
      return Promise.resolve(found);
    },
    put(key, entry) {
      records.set(key, entry);
      return Promise.resolve();
    },
    delete(key) {
      records.delete(key);
      return Promise.resolve();
    },
    entries: () => records.entries(),
    job: () => Promise.resolve(header),
    close() {
      busy = false;
      return Promise.resolve();
    },
  };
}
