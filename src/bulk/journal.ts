// The journal of a bulk job: per recipient key, claimed before its request leaves, then its
// outcome; and the job it belongs to. The in-memory one lives here; fileJournal survives a crash.
import { BulkJournalMismatchError } from './errors.js';
import type { BulkError } from './types.js';

/** What the journal holds for one key: claimed (a request may be on its way), or its outcome. */
export interface JournalEntry {
  readonly to: string;
  readonly status: 'claimed' | 'sent' | 'failed' | 'unknown';
  readonly messageId?: string;
  readonly error?: BulkError;
  /** The run of the job that last read this key (a key read twice in one run is a repeat). */
  readonly run: number;
}

/**
 * Where a bulk job records its claims and outcomes (`memoryJournal`, `fileJournal`, or your own).
 * `put` resolves only once the entry would survive the process being killed.
 */
export interface BulkJournal {
  /** Opens the journal for job `id` and starts a run: resolves with the run's number (1, 2, …); refuses another job's journal. */
  open(id: string): Promise<number>;
  /** The entry of `key`, if any. */
  get(key: string): Promise<JournalEntry | undefined>;
  /** Records the entry of `key`, durably. */
  put(key: string, entry: JournalEntry): Promise<void>;
  /** Forgets `key` (its claim was taken but its request never left). */
  delete(key: string): Promise<void>;
  /** Ends the run; `open` may start another. */
  close(): Promise<void>;
}

/** The job and run count a journal keeps besides its entries. */
export interface JournalHeader {
  readonly id: string;
  readonly runs: number;
}

/** The header of the next run of job `id`, or the typed refusal when the journal holds another job. */
export function nextRun(id: string, header: JournalHeader | undefined): JournalHeader {
  if (header !== undefined && header.id !== id) throw new BulkJournalMismatchError(id, header.id);
  return { id, runs: (header?.runs ?? 0) + 1 };
}

/** A journal in memory: resumes within one process (it does not survive a crash; `fileJournal` does). */
export function memoryJournal(): BulkJournal {
  const entries = new Map<string, JournalEntry>();
  let header: JournalHeader | undefined;
  return {
    open(id) {
      try {
        header = nextRun(id, header);
        return Promise.resolve(header.runs);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    get: (key) => Promise.resolve(entries.get(key)),
    put(key, entry) {
      entries.set(key, entry);
      return Promise.resolve();
    },
    delete(key) {
      entries.delete(key);
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
}
