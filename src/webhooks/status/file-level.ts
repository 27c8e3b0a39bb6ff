// The LevelDB folder of fileStatusStore (classic-level, an optional peer). Loaded with import() by
// the store's first use, so that a receiver that keeps its statuses elsewhere never loads it, nor
// node:fs (the Node build of bizmsg/webhooks runs in Bun and Deno too).
import { mkdir, realpath, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { BizMsgError } from '../../shared/errors.js';
import { StatusStoreBusyError } from './errors.js';

/** A range of keys, as classic-level's iterators take it. */
export interface KeyRange {
  gte?: string;
  lt?: string;
}

/** One write of a batch: a value is stored as JSON. */
export type LevelWrite = { type: 'put'; key: string; value: unknown } | { type: 'del'; key: string };

/** The part of a classic-level database the status store uses: string keys, JSON values. */
export interface Level {
  close(): Promise<void>;
  get(key: string): Promise<unknown>;
  getMany(keys: string[]): Promise<unknown[]>;
  /** Applies every write or none. */
  batch(writes: LevelWrite[]): Promise<void>;
  keys(range: KeyRange): { all(): Promise<string[]> };
  values(range: KeyRange): AsyncIterable<unknown>;
}

type ClassicLevelClass = new (
  location: string,
  options: { keyEncoding: 'utf8'; valueEncoding: 'json' },
) => Level & {
  open(): Promise<void>;
};

/**
 * Opens the folder `path` (created if missing) and resolves with its database. Rejects with
 * `StatusStoreBusyError` when another process, or another store of this one, has it open.
 */
export async function openLevel(path: string): Promise<Level> {
  const ClassicLevel = await loadClassicLevel();
  const db = new ClassicLevel(await realFolder(path), { keyEncoding: 'utf8', valueEncoding: 'json' });
  try {
    await db.open();
  } catch (error) {
    // LevelDB's lock of the folder's LOCK file; it says LEVEL_LOCKED in this process and in another.
    if ((error as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED')
      throw new StatusStoreBusyError(path, { cause: error });
    throw new BizMsgError(`The status store at ${path} could not be opened: ${(error as Error).message}.`, {
      cause: error,
    });
  }
  return db;
}

async function loadClassicLevel(): Promise<ClassicLevelClass> {
  try {
    return ((await import('classic-level')) as unknown as { ClassicLevel: ClassicLevelClass }).ClassicLevel;
  } catch (error) {
    throw new BizMsgError(
      `fileStatusStore needs the package classic-level, an optional peer dependency of bizmsg, which could not be loaded (${(error as Error).message}): npm install classic-level`,
      { cause: error },
    );
  }
}

/**
 * The folder's real path, the folder created if missing. LevelDB refuses a second open of a folder
 * in the same process only when both spell its name alike (POSIX locks do not conflict within one
 * process, so it keeps a table of the names it holds): the real path makes `./statuses`,
 * `/app/statuses/` and a symbolic link to it one name, and a second store of it is refused.
 */
async function realFolder(path: string): Promise<string> {
  try {
    await makeFolder(path);
    return await realpath(path);
  } catch (error) {
    throw new BizMsgError(`The status store at ${path} could not be opened: ${(error as Error).message}.`, {
      cause: error,
    });
  }
}

/**
 * Creates the folder `path` and its missing parents, one at a time. Not `mkdir(path, { recursive:
 * true })`: Node's never settles where a parent cannot be made (`/proc/x/y` on Linux), and a store
 * whose first call never settles hangs the app; made one at a time, the failure is an error.
 */
async function makeFolder(path: string): Promise<void> {
  const missing: string[] = [];
  for (let folder = resolve(path); ; folder = dirname(folder)) {
    const found = await stat(folder).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        return false;
      },
    );
    if (found || dirname(folder) === folder) break;
    missing.unshift(folder);
  }
  for (const folder of missing)
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
}
