// A LevelDB folder (classic-level) whose records are sealed: writes are committed in groups (group
// commit: the writes that arrive while a batch is written go together in the next), each group one
// synced LevelDB batch followed by the seal's write, and opening it checks its records against the
// seal, refusing a folder that lost or changed any.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BizMsgError, InvalidArgumentError } from '../../shared/errors.js';
import { BulkJournalBusyError, BulkJournalDamagedError } from '../errors.js';
import { emptyDigest, Seal, SEAL_FILE, toggleRecord, type SealState } from './seal.js';

/** The part of classic-level used here (keys and values are strings). */
interface Level {
  open(): Promise<void>;
  close(): Promise<void>;
  get(key: string): Promise<string | undefined>;
  getMany(keys: string[]): Promise<(string | undefined)[]>;
  batch(operations: BatchOperation[], options: { sync: boolean }): Promise<void>;
  iterator(): AsyncIterable<[string, string]>;
}

type BatchOperation = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

/** The store's own record: the seal's state as of the batch it was written with (not part of the digest). */
const META = '~seal';

/** Keys whose LevelDB value the store keeps in mind (a send's claim and outcome come well within this). */
const KNOWN = 4096;

/** Writes committed together, and who waits for them. */
class Group {
  readonly writes = new Map<string, string | undefined>();
  readonly committed: Promise<void>;
  settle!: (error?: Error) => void;

  constructor() {
    this.committed = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    // A group may fail with nobody waiting on it (its writers already gave up).
    this.committed.catch(() => undefined);
  }
}

/** A sealed store open on one folder; one at a time per folder (LevelDB's lock). */
export class SealedStore {
  readonly #path: string;
  readonly #db: Level;
  readonly #seal: Seal;
  #state: SealState;
  /** Writes gathering for the next batch, and the group whose batch is being written. */
  #open = new Group();
  #writing: Group | undefined;
  /** The last operation on each key under way (claims and writes of a key run one at a time). */
  readonly #keyed = new Map<string, Promise<unknown>>();
  /**
   * What LevelDB holds for keys read or written lately (undefined: nothing), so that a batch knows
   * the records it replaces (for the digest) without reading them again.
   */
  readonly #known = new Map<string, string | undefined>();
  #failure: { error: Error } | undefined;

  private constructor(path: string, db: Level, seal: Seal, state: SealState) {
    this.#path = path;
    this.#db = db;
    this.#seal = seal;
    this.#state = state;
  }

  /** Opens the folder `path`, checks it against its seal, and resolves with the store; refuses a damaged or busy one. */
  static async open(path: string, { existing = false }: { existing?: boolean } = {}): Promise<SealedStore> {
    // Read, not run: a folder no run wrote (a typo) is no journal, and is neither made nor read as empty.
    if (existing && !existsSync(join(path, SEAL_FILE)))
      throw new InvalidArgumentError(
        `There is no bulk journal at ${path}: nothing was read. Give the folder a run of sendBulk or \`bizmsg bulk\` wrote (the command's is the CSV's name with .journal).`,
      );
    const db = await openLevel(path);
    let seal: Seal | undefined;
    try {
      const found = await Seal.read(path);
      seal = found?.seal;
      const { digest, records } = await scan(db, path);
      const meta = parseMeta(await db.get(META));
      if (records === 0 && meta === undefined && found?.state === undefined) {
        // A new folder: no record, and no seal yet (or one whose first write a crash cut short).
        seal = undefined;
        await found?.seal.close();
        seal = await Seal.create(path);
        return new SealedStore(path, db, seal, { seq: 0, digest });
      }
      if (found === undefined) throw new BulkJournalDamagedError(path, `it has records but no seal file ${SEAL_FILE}`);
      const state = checkSeal(path, found.state, meta, digest);
      if (state.seq !== found.state?.seq) found.seal.write(state);
      return new SealedStore(path, db, found.seal, state);
    } catch (error) {
      await seal?.close();
      await db.close();
      throw damageOf(error, path);
    }
  }

  /** The value of `key`, writes not yet committed included. */
  async get(key: string): Promise<string | undefined> {
    if (this.#open.writes.has(key)) return this.#open.writes.get(key);
    if (this.#writing?.writes.has(key)) return this.#writing.writes.get(key);
    return this.#db.get(key).catch((error: unknown) => {
      throw damageOf(error, this.#path);
    });
  }

  /** Writes `value` for `key` unless it has one, in one step: resolves with the value it had (nothing written), or undefined once written. */
  claim(key: string, value: string): Promise<string | undefined> {
    return this.#withKey(key, async () => {
      const pending = this.#open.writes.has(key) || this.#writing?.writes.has(key) === true;
      const found = await this.get(key);
      // Read from LevelDB while no write of the key was under way: what the next batch replaces.
      if (!pending) this.#remember(key, found);
      if (found !== undefined) return found;
      await this.#enqueue(key, value);
      return undefined;
    });
  }

  /** Writes `value` for `key` (undefined: deletes it); resolves once it is synced and sealed. */
  write(key: string, value: string | undefined): Promise<void> {
    return this.#withKey(key, () => this.#enqueue(key, value));
  }

  /** Runs `operation` once the operations on `key` before it have ended: one at a time per key. */
  #withKey<T>(key: string, operation: () => Promise<T>): Promise<T> {
    const result = (this.#keyed.get(key) ?? Promise.resolve()).then(operation);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.#keyed.set(key, settled);
    void settled.then(() => this.#keyed.get(key) === settled && this.#keyed.delete(key));
    return result;
  }

  #enqueue(key: string, value: string | undefined): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure.error);
    const group = this.#open;
    group.writes.set(key, value);
    if (this.#writing === undefined) void this.#writeGroups();
    return group.committed;
  }

  /** Notes that LevelDB holds `value` for `key` now, forgetting the longest-known key beyond the bound. */
  #remember(key: string, value: string | undefined): void {
    this.#known.delete(key);
    this.#known.set(key, value);
    if (this.#known.size > KNOWN) this.#known.delete(this.#known.keys().next().value!);
  }

  /** Every record but the store's own, in key order. */
  async *entries(): AsyncGenerator<[string, string]> {
    try {
      for await (const [key, value] of this.#db.iterator()) if (key !== META) yield [key, value];
    } catch (error) {
      throw damageOf(error, this.#path);
    }
  }

  /** Commits what was written, then closes the folder. */
  async close(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing.committed.catch(() => undefined);
    await this.#seal.close();
    await this.#db.close();
  }

  /**
   * Writes the open group to LevelDB (one synced batch), then the seal, then the one that gathered
   * meanwhile, until none is left: a group's writes count once its batch is synced and its seal written.
   */
  async #writeGroups(): Promise<void> {
    while (this.#open.writes.size > 0 && this.#failure === undefined) {
      const group = (this.#writing = this.#open);
      this.#open = new Group();
      try {
        this.#seal.write(await this.#writeBatch(group.writes));
        group.settle();
      } catch (error) {
        group.settle(this.#fail(error));
      }
    }
    this.#writing = undefined;
  }

  /** One synced LevelDB batch of `writes` with the state it leads to, which it resolves with. */
  async #writeBatch(writes: ReadonlyMap<string, string | undefined>): Promise<SealState> {
    const keys = [...writes.keys()];
    const unknown = keys.filter((key) => !this.#known.has(key));
    const read = unknown.length === 0 ? [] : await this.#db.getMany(unknown);
    const before = new Map(unknown.map((key, i) => [key, read[i]]));
    const digest = Buffer.from(this.#state.digest);
    const operations: BatchOperation[] = keys.map((key) => {
      const value = writes.get(key);
      const old = before.has(key) ? before.get(key) : this.#known.get(key);
      if (old !== undefined) toggleRecord(digest, key, old);
      if (value === undefined) return { type: 'del', key };
      toggleRecord(digest, key, value);
      return { type: 'put', key, value };
    });
    const state = { seq: this.#state.seq + 1, digest };
    operations.push({
      type: 'put',
      key: META,
      value: JSON.stringify({ seq: state.seq, digest: digest.toString('hex') }),
    });
    await this.#db.batch(operations, { sync: true });
    for (const [key, value] of writes) this.#remember(key, value);
    this.#state = state;
    return state;
  }

  /** The store can record no more: every write from now on, and those waiting, fail with the returned error. */
  #fail(error: unknown): Error {
    this.#failure ??= {
      error: new BizMsgError(
        `The journal at ${this.#path} could not record a write (${(error as Error).message}): the run stops, sending nothing more.`,
        { cause: error },
      ),
    };
    this.#open.settle(this.#failure.error);
    return this.#failure.error;
  }
}

/**
 * The state to go on from, when the records match the seal. A group's seal is written only once its
 * batch is synced, and its writes count only once its seal is written: so LevelDB may be ahead of
 * the seal (a group that never counted, or a seal whose last writes a power cut took before they
 * were synced), never behind it, and its records must match the digest of the last batch it has.
 * Anything else is damage.
 */
function checkSeal(
  path: string,
  sealed: SealState | undefined,
  meta: SealState | undefined,
  digest: Buffer,
): SealState {
  if (sealed === undefined) throw new BulkJournalDamagedError(path, `its seal file ${SEAL_FILE} is damaged`);
  const last = meta?.seq ?? 0;
  if (last < sealed.seq)
    throw new BulkJournalDamagedError(
      path,
      `its log ends at write ${last} of ${sealed.seq}: the writes after it are lost`,
    );
  const vouched = last === sealed.seq ? sealed : meta!;
  if (!digest.equals(vouched.digest))
    throw new BulkJournalDamagedError(
      path,
      `its records differ from those written by write ${vouched.seq}: some were lost or changed`,
    );
  return vouched;
}

function parseMeta(value: string | undefined): SealState | undefined {
  if (value === undefined) return undefined;
  const { seq, digest } = JSON.parse(value) as { seq: number; digest: string };
  return { seq, digest: Buffer.from(digest, 'hex') };
}

/** The digest and number of the folder's records (the store's own left out). */
async function scan(db: Level, path: string): Promise<{ digest: Buffer; records: number }> {
  const digest = emptyDigest();
  let records = 0;
  try {
    for await (const [key, value] of db.iterator()) {
      if (key === META) continue;
      toggleRecord(digest, key, value);
      records += 1;
    }
  } catch (error) {
    throw damageOf(error, path);
  }
  return { digest, records };
}

/** LevelDB's report of a corrupt file, as the journal's refusal; other errors as they are. */
function damageOf(error: unknown, path: string): unknown {
  const code = (error as { code?: string; cause?: { code?: string } }).code;
  const causeCode = (error as { cause?: { code?: string } }).cause?.code;
  if (code !== 'LEVEL_CORRUPTION' && causeCode !== 'LEVEL_CORRUPTION') return error;
  return new BulkJournalDamagedError(path, `LevelDB found a corrupt file: ${(error as Error).message}`, {
    cause: error,
  });
}

async function openLevel(path: string): Promise<Level> {
  let ClassicLevel: new (path: string, options: { keyEncoding: 'utf8'; valueEncoding: 'utf8' }) => Level;
  try {
    ({ ClassicLevel } = (await import('classic-level')) as unknown as { ClassicLevel: typeof ClassicLevel });
  } catch (error) {
    throw new BizMsgError('fileJournal needs the package classic-level: npm install classic-level', { cause: error });
  }
  const db = new ClassicLevel(path, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
  try {
    await db.open();
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED')
      throw new BulkJournalBusyError(path, { cause: error });
    const damage = damageOf(error, path);
    if (damage !== error) throw damage;
    throw new BizMsgError(`The journal at ${path} could not be opened: ${(error as Error).message}`, { cause: error });
  }
  return db;
}
