// fileJournal: the journal of a bulk job in a LevelDB folder (classic-level, an optional peer loaded
// here only). Each write reaches the operating system before it resolves, so it survives `kill -9`
// of the process; `sync: true` also flushes it to disk (survives a power cut), at a cost per send.
import { BizMsgError, InvalidArgumentError } from '../shared/errors.js';
import { nextRun, type BulkJournal, type JournalEntry, type JournalHeader } from './journal.js';

/** Options of `fileJournal`. */
export interface FileJournalOptions {
  /** Flush every write to disk before it resolves (survives a power cut, not only a crash). Default false. */
  sync?: boolean;
}

/** The part of classic-level used here. */
interface Level {
  open(): Promise<void>;
  close(): Promise<void>;
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown, options: { sync: boolean }): Promise<void>;
  del(key: string, options: { sync: boolean }): Promise<void>;
}

/** Keys of entries start with this; the header's key cannot. */
const ENTRY = 'k:';
const HEADER = 'job';

/**
 * A journal in the folder `path` (created if missing), durable on one machine: a crash of the
 * process loses nothing written. Needs the optional peer `classic-level`. One process at a time.
 */
export function fileJournal(path: string, options: FileJournalOptions = {}): BulkJournal {
  if (typeof path !== 'string' || path === '')
    throw new InvalidArgumentError('fileJournal(path): `path` must be a folder path.');
  const write = { sync: options.sync === true };
  let db: Level | undefined;
  const opened = () => {
    if (db === undefined) throw new BizMsgError(`The journal at ${path} is not open: run a bulk job with it.`);
    return db;
  };
  return {
    async open(id) {
      db ??= await openLevel(path);
      try {
        const header = nextRun(id, (await db.get(HEADER)) as JournalHeader | undefined);
        await db.put(HEADER, header, write);
        return header.runs;
      } catch (error) {
        await this.close();
        throw error;
      }
    },
    get: async (key) => (await opened().get(ENTRY + key)) as JournalEntry | undefined,
    put: (key, entry) => opened().put(ENTRY + key, entry, write),
    delete: (key) => opened().del(ENTRY + key, write),
    async close() {
      const closing = db;
      db = undefined;
      await closing?.close();
    },
  };
}

async function openLevel(path: string): Promise<Level> {
  let ClassicLevel: new (path: string, options: { valueEncoding: 'json' }) => Level;
  try {
    ({ ClassicLevel } = (await import('classic-level')) as unknown as { ClassicLevel: typeof ClassicLevel });
  } catch (error) {
    throw new BizMsgError('fileJournal needs the package classic-level: npm install classic-level', { cause: error });
  }
  const db = new ClassicLevel(path, { valueEncoding: 'json' });
  try {
    await db.open();
  } catch (error) {
    const locked = (error as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED';
    throw new BizMsgError(
      locked
        ? `The journal at ${path} is in use by another process: one bulk run per journal at a time.`
        : `The journal at ${path} could not be opened: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return db;
}
