// fileJournal: the journal of a bulk job in a LevelDB folder (classic-level, an optional peer, and
// the sealed store of file/, both loaded when a run opens it). Each claim is synced to disk before
// its request leaves (survives kill -9 and a power cut), and a folder that lost records is refused.
import { BizMsgError, InvalidArgumentError } from '../shared/errors.js';
import { BulkJournalBusyError } from './errors.js';
import type { SealedStore } from './file/store.js';
import { nextRun, type BulkJournal, type JournalEntry, type JournalHeader } from './journal.js';

/** Keys of entries start with this; the header's key cannot. */
const ENTRY = 'k:';
const HEADER = 'job';

/**
 * A journal in the folder `path` (created if missing), durable on one machine: every claim and
 * outcome is synced to disk before it counts, written in groups (group commit) so that syncing
 * costs little per send, and sealed, so that a folder whose files were cut short or damaged is
 * refused (`BulkJournalDamagedError`) instead of resent. Needs the optional peer `classic-level`.
 * One run at a time, of any process (`BulkJournalBusyError`). Read without a run (`results()`
 * after it, `bulkOutcomes`), a folder no run wrote is refused (`InvalidArgumentError`), not made.
 */
export function fileJournal(path: string): BulkJournal {
  if (typeof path !== 'string' || path === '')
    throw new InvalidArgumentError('fileJournal(path): `path` must be a folder path.');
  let store: SealedStore | undefined;
  /** A run, or a reading of the entries, has the folder (or is opening it). */
  let busy = false;
  const opened = () => {
    if (store === undefined) throw new BizMsgError(`The journal at ${path} is not open: run a bulk job with it.`);
    return store;
  };
  /** The folder, for a run (made if missing) or to read (`existing`: it must be a journal already). */
  const take = async (existing = false) => {
    if (busy) throw new BulkJournalBusyError(path);
    busy = true;
    try {
      const { SealedStore } = await import('./file/store.js');
      return await SealedStore.open(path, { existing });
    } catch (error) {
      busy = false;
      throw error;
    }
  };
  return {
    async open(id) {
      const taken = await take();
      try {
        const header = nextRun(id, parse<JournalHeader>(await taken.get(HEADER)));
        await taken.write(HEADER, JSON.stringify(header));
        store = taken;
        return header.runs;
      } catch (error) {
        await taken.close();
        busy = false;
        throw error;
      }
    },
    get: async (key) => parse<JournalEntry>(await opened().get(ENTRY + key)),
    claim: async (key, entry) => parse<JournalEntry>(await opened().claim(ENTRY + key, JSON.stringify(entry))),
    put: (key, entry) => opened().write(ENTRY + key, JSON.stringify(entry)),
    delete: (key) => opened().write(ENTRY + key, undefined),
    async *entries() {
      const reading = store ?? (await take(true));
      try {
        for await (const [key, value] of reading.entries()) {
          if (key.startsWith(ENTRY)) yield [key.slice(ENTRY.length), parse<JournalEntry>(value)!] as const;
        }
      } finally {
        if (reading !== store) {
          await reading.close();
          busy = false;
        }
      }
    },
    async job() {
      const reading = store ?? (await take(true));
      try {
        return parse<JournalHeader>(await reading.get(HEADER));
      } finally {
        if (reading !== store) {
          await reading.close();
          busy = false;
        }
      }
    },
    async close() {
      const closing = store;
      if (closing === undefined) return;
      store = undefined;
      try {
        await closing.close();
      } finally {
        busy = false;
      }
    },
  };
}

function parse<T>(value: string | undefined): T | undefined {
  return value === undefined ? undefined : (JSON.parse(value) as T);
}
