// fileStatusStore: a status tracker's records in a LevelDB folder, kept across restarts of one machine's app.
import { showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import type { Level, LevelWrite } from './file-level.js';
import { mergeRecord, type StatusChange, type StatusRecord, type TrackedStatus } from './record.js';
import { countStatuses, statusTtl, type StatusStore, type StatusStoreOptions, type StatusSummary } from './store.js';

/** Options of `fileStatusStore`. */
// Its own name, as every store's options have one, though it adds nothing to the shared ones yet.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FileStatusStoreOptions extends StatusStoreOptions {}

/** What the folder holds for one message: its record, and when it stops counting (ms since the epoch). */
interface Stored {
  record: StatusRecord;
  expires: number;
}

/** Keys of records (`r:` and the message id) and of their expiry times (`x:`, the time, `:`, the id). */
const RECORDS = { gte: 'r:', lt: 'r;' };
const EXPIRIES = 'x:';
const recordKey = (id: string) => `r:${id}`;
/** Expiry keys sort by time: the time has a fixed width (15 digits hold every date to the year 33658). */
const expiryKey = (expires: number, id: string) => `${EXPIRIES}${String(expires).padStart(15, '0')}:${id}`;
const idOfExpiryKey = (key: string) => key.slice(EXPIRIES.length + 16);

/** Least time between two sweeps of the expired records. */
const SWEEP_EVERY_MS = 60_000;

/**
 * A status tracker's store in the folder `path` on this machine (created if missing), so that an
 * app without Redis keeps its statuses across restarts:
 * `createStatusTracker({ store: fileStatusStore('./statuses') })`. Merges follow the same rule as
 * every store (a status never moves back); each record is kept `ttl` ms (default 7 days) after its
 * last change. One process at a time has the folder: a second opener, of another process or of
 * this one, is refused with `StatusStoreBusyError`. `watch` hears the merges of this process only.
 * The folder opens at the first call and again after `close()`. Needs the optional peer
 * `classic-level`, and Node: on Workers and in browsers it throws, naming `memoryStatusStore` and
 * `redisStatusStore`.
 *
 * @example
 * ```ts
 * const tracker = createStatusTracker({ store: fileStatusStore('./statuses') });
 * process.once('SIGTERM', () => void tracker.close());
 * ```
 */
export function fileStatusStore(path: string, options: FileStatusStoreOptions = {}): StatusStore {
  if (typeof path !== 'string' || path === '')
    throw new InvalidArgumentError(
      `fileStatusStore(path): \`path\` must be a folder path (a non-empty string), got ${showValue(path)}.`,
    );
  return new FileStatusStore(path, statusTtl(options, 'fileStatusStore'));
}

class FileStatusStore implements StatusStore {
  readonly #path: string;
  readonly #ttl: number;
  readonly #listeners = new Map<string, Set<(record: StatusRecord) => void>>();
  /** The last operation of each id under way: merges of one id run one at a time, which makes each atomic. */
  readonly #turns = new Map<string, Promise<unknown>>();
  /** Every operation on the database under way: `close` lets them end first. */
  readonly #using = new Set<Promise<unknown>>();
  /** The database, open or opening; undefined while closed. */
  #opening: Promise<Level> | undefined;
  /** The database once open, until `close` is called. */
  #current: Level | undefined;
  /** The last close: an open waits for it, since LevelDB refuses a folder still held. */
  #closing: Promise<void> = Promise.resolve();
  #lastSweep = 0;

  constructor(path: string, ttl: number) {
    this.#path = path;
    this.#ttl = ttl;
  }

  merge(change: StatusChange): Promise<StatusRecord> {
    return this.#use((db) => this.#inTurn(change.id, () => this.#mergeInto(db, change)));
  }

  get(id: string): Promise<StatusRecord | undefined> {
    return this.#use(async (db) => live(await read(db, id), Date.now())?.record);
  }

  summary(ids?: readonly string[]): Promise<StatusSummary> {
    return this.#use(async (db) => {
      const now = Date.now();
      if (ids !== undefined) {
        const found = (await db.getMany(ids.map(recordKey))) as (Stored | undefined)[];
        return countStatuses(found.map((stored) => live(stored, now)?.record.status));
      }
      const statuses: TrackedStatus[] = [];
      for await (const stored of db.values(RECORDS)) {
        const status = live(stored as Stored, now)?.record.status;
        if (status !== undefined) statuses.push(status);
      }
      return countStatuses(statuses);
    });
  }

  /** Listens to the merges of this process only: another process cannot share the folder. */
  watch(id: string, listener: (record: StatusRecord) => void): Promise<() => void> {
    const listeners = this.#listeners.get(id) ?? new Set();
    this.#listeners.set(id, listeners.add(listener));
    return Promise.resolve(() => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners.get(id) === listeners) this.#listeners.delete(id);
    });
  }

  /** Closes the folder once the operations under way have ended; the next call opens it again. */
  close(): Promise<void> {
    const opening = this.#opening;
    // Closed already, or closing: wait for that close, whatever became of it.
    if (opening === undefined) return this.#closing.catch(() => undefined);
    this.#opening = undefined;
    this.#current = undefined;
    const using = [...this.#using];
    this.#closing = Promise.allSettled(using)
      .then(() => opening)
      .then(
        (db) => db.close(),
        () => undefined, // it never opened: nothing to close
      );
    return this.#closing;
  }

  /** The record after `change`, written with its new expiry time when the change changed it. */
  async #mergeInto(db: Level, change: StatusChange): Promise<StatusRecord> {
    const now = Date.now();
    const stored = await read(db, change.id);
    // An expired record counts as none: the merge starts afresh and replaces it.
    const { record, changed } = mergeRecord(live(stored, now)?.record, change);
    if (changed) {
      const expires = now + this.#ttl;
      const writes: LevelWrite[] = [
        { type: 'put', key: recordKey(record.id), value: { record, expires } satisfies Stored },
        { type: 'put', key: expiryKey(expires, record.id), value: record.id },
      ];
      if (stored !== undefined) writes.push({ type: 'del', key: expiryKey(stored.expires, record.id) });
      // Not synced (LevelDB's default): a write is in the operating system's hands once it resolves,
      // so it survives the process (a crash, process.exit, kill -9), not a power cut. A status lost
      // that way comes back with the service's next event or a `refresh`; syncing would cost a disk
      // flush per webhook event.
      await db.batch(writes);
      for (const listener of this.#listeners.get(record.id) ?? []) listener(structuredClone(record));
    }
    this.#sweepWhenDue(db, now);
    return record;
  }

  /**
   * Drops the records that expired, in the background, at most once a minute: a store open for
   * months stays as large as its `ttl` keeps it. A failed sweep is tried again by the next. None
   * starts once `close` is called: it would run on a closed database, or open it again.
   */
  #sweepWhenDue(db: Level, now: number): void {
    if (now - this.#lastSweep < SWEEP_EVERY_MS || this.#current !== db) return;
    this.#lastSweep = now;
    this.#track(this.#sweep(db, now)).catch(() => undefined);
  }

  async #sweep(db: Level, now: number): Promise<void> {
    const expired = await db.keys({ gte: EXPIRIES, lt: expiryKey(now + 1, '') }).all();
    for (const key of expired) {
      const id = idOfExpiryKey(key);
      // An id with a merge under way is left to the next sweep: that merge may be writing it anew.
      // Any other is dropped in its turn, so that no merge of it starts meanwhile.
      if (!this.#turns.has(id)) await this.#inTurn(id, () => this.#dropIfExpired(db, key, id, now));
    }
  }

  async #dropIfExpired(db: Level, key: string, id: string, now: number): Promise<void> {
    // A merge may have written the record anew between the listing of its key and this turn.
    const stored = await read(db, id);
    const writes: LevelWrite[] = [{ type: 'del', key }];
    if (stored !== undefined && live(stored, now) === undefined) writes.push({ type: 'del', key: recordKey(id) });
    await db.batch(writes);
  }

  /** Runs `operation` once the operations of `id` before it have ended. */
  #inTurn<T>(id: string, operation: () => Promise<T>): Promise<T> {
    const result = (this.#turns.get(id) ?? Promise.resolve()).then(operation);
    const ended = result.then(
      () => undefined,
      () => undefined,
    );
    this.#turns.set(id, ended);
    void ended.then(() => this.#turns.get(id) === ended && this.#turns.delete(id));
    return result;
  }

  /**
   * Runs `operation` on the database, opening it if need be; a `close` called later lets it end
   * first. The database is taken at the call: an operation called before a close runs on the
   * database that close closes, one called after it on the one opened next (once it is closed).
   */
  #use<T>(operation: (db: Level) => Promise<T>): Promise<T> {
    return this.#track(this.#open().then(operation));
  }

  /** Notes `operation` as under way until it ends. */
  #track<T>(operation: Promise<T>): Promise<T> {
    this.#using.add(operation);
    const forget = () => void this.#using.delete(operation);
    void operation.then(forget, forget);
    return operation;
  }

  #open(): Promise<Level> {
    if (this.#opening !== undefined) return this.#opening;
    const opening: Promise<Level> = this.#closing
      .catch(() => undefined)
      .then(() => import('./file-level.js'))
      .then(({ openLevel }) => openLevel(this.#path))
      .then((db) => {
        if (this.#opening === opening) this.#current = db;
        return db;
      });
    this.#opening = opening;
    // A failed open is tried again by the next call: the process that had the folder may have let go.
    void opening.catch(() => {
      if (this.#opening === opening) this.#opening = undefined;
    });
    return opening;
  }
}

function read(db: Level, id: string): Promise<Stored | undefined> {
  return db.get(recordKey(id)) as Promise<Stored | undefined>;
}

/** `stored`, unless it has expired by `now`. */
function live(stored: Stored | undefined, now: number): Stored | undefined {
  return stored !== undefined && stored.expires > now ? stored : undefined;
}
