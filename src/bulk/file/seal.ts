// The seal of a file journal: a small file beside LevelDB's, written after each group of writes,
// holding how many groups were committed and a digest of every record the store should hold. It
// is the witness that LevelDB's own log cannot be: a log cut short or damaged loses the records
// and any count kept with them, but not the seal.
import { createHash } from 'node:crypto';
import { writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the store stands: groups of writes committed, and the digest of its records. */
export interface SealState {
  readonly seq: number;
  readonly digest: Buffer;
}

/** The seal's file name in the journal's folder (LevelDB leaves names it does not know alone). */
export const SEAL_FILE = 'bizmsg-seal';

/** Bytes of a record's digest, and of the store's (the records' digests XORed). */
const DIGEST_BYTES = 32;
const MAGIC = Buffer.from('bzseal1\n');
/** A slot: magic, seq, digest, then a check of those (a torn slot is told from a whole one). */
const SLOT_BYTES = MAGIC.length + 8 + DIGEST_BYTES + 16;

/** The digest of a store holding nothing. */
export function emptyDigest(): Buffer {
  return Buffer.alloc(DIGEST_BYTES);
}

/**
 * XORs the digest of one record into `digest`, in place: adding a record and taking it away are
 * the same step, so a store's digest follows its writes without reading it whole.
 */
export function toggleRecord(digest: Buffer, key: string, value: string): void {
  const record = createHash('sha256').update(key).update('\u0000').update(value).digest();
  for (let i = 0; i < DIGEST_BYTES; i++) digest[i]! ^= record[i]!;
}

/**
 * The seal file of the folder `path`. It has two slots, written in turn (write `seq` goes to slot
 * `seq % 2`), so that a write torn by a power cut leaves the one before it whole. A write reaches
 * the file at once (it survives the process) and is synced soon after, in the background: the
 * claims it vouches for are synced already, in LevelDB, so a power cut can only leave the seal
 * behind LevelDB, which opening accepts.
 */
export class Seal {
  readonly #file: FileHandle;
  /** The background sync: running, whether a write came after it started, and how it failed. */
  #syncing: Promise<void> | undefined;
  #dirty = false;
  #failure: { error: unknown } | undefined;

  private constructor(file: FileHandle) {
    this.#file = file;
  }

  /** The seal of `folder` and what it says, or undefined when it has none (`state` undefined: no whole slot). */
  static async read(folder: string): Promise<{ seal: Seal; state: SealState | undefined } | undefined> {
    let file: FileHandle;
    try {
      file = await open(join(folder, SEAL_FILE), 'r+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const bytes = Buffer.alloc(SLOT_BYTES * 2);
    const { bytesRead } = await file.read(bytes, 0, bytes.length, 0);
    const states = [0, 1]
      .map((slot) => readSlot(bytes.subarray(slot * SLOT_BYTES, Math.min(bytesRead, (slot + 1) * SLOT_BYTES))))
      .filter((state) => state !== undefined);
    const state = states.sort((a, b) => b.seq - a.seq)[0];
    return { seal: new Seal(file), state };
  }

  /** Creates the seal of a new store in `folder` (synced, with the folder's entry for it). */
  static async create(folder: string): Promise<Seal> {
    const seal = new Seal(await open(join(folder, SEAL_FILE), 'w+'));
    seal.write({ seq: 0, digest: emptyDigest() });
    await seal.#file.datasync();
    await syncFolder(folder);
    return seal;
  }

  /** Writes `state` to the file now, and has it synced soon; throws when an earlier sync failed. */
  write(state: SealState): void {
    if (this.#failure !== undefined) throw this.#failure.error;
    const slot = Buffer.alloc(SLOT_BYTES);
    MAGIC.copy(slot, 0);
    slot.writeBigUInt64BE(BigInt(state.seq), MAGIC.length);
    state.digest.copy(slot, MAGIC.length + 8);
    checkOf(slot).copy(slot, SLOT_BYTES - 16);
    writeSync(this.#file.fd, slot, 0, SLOT_BYTES, (state.seq % 2) * SLOT_BYTES);
    this.#dirty = true;
    this.#syncing ??= this.#sync();
  }

  /** Syncs what was written, then closes the file. */
  async close(): Promise<void> {
    try {
      await this.#syncing;
      if (this.#failure !== undefined) throw this.#failure.error;
    } finally {
      await this.#file.close();
    }
  }

  /** Syncs until no write is left unsynced. */
  async #sync(): Promise<void> {
    try {
      while (this.#dirty) {
        this.#dirty = false;
        await this.#file.datasync();
      }
    } catch (error) {
      this.#failure = { error };
    } finally {
      this.#syncing = undefined;
    }
  }
}

function readSlot(slot: Buffer): SealState | undefined {
  if (slot.length !== SLOT_BYTES || !slot.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  if (!checkOf(slot).equals(slot.subarray(SLOT_BYTES - 16))) return undefined;
  const digest = Buffer.from(slot.subarray(MAGIC.length + 8, MAGIC.length + 8 + DIGEST_BYTES));
  return { seq: Number(slot.readBigUInt64BE(MAGIC.length)), digest };
}

function checkOf(slot: Buffer): Buffer {
  return createHash('sha256')
    .update(slot.subarray(0, SLOT_BYTES - 16))
    .digest()
    .subarray(0, 16);
}

/** Syncs the folder's list of files, so that a new file survives a power cut (not possible on Windows: skipped). */
async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch (error) {
    if (process.platform !== 'win32') throw error;
  } finally {
    await handle?.close();
  }
}
