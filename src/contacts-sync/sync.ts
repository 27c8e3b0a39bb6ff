// syncContacts: a list of contacts made the account's, one contact per number. The list is read
// first (rows of one number merged), then the account (its pages, once), then each number is
// written only where it differs; writes whose outcome only the account can tell are settled after
// reading it again. A run like sendBulk's: the report, progress events, results().
import { AbortError, ConnectionError } from '../core/errors/classes.js';
import { checkRunOptions, type RunSettings } from '../runs/options.js';
import { Run } from '../runs/run.js';
import { RunWork } from '../runs/work.js';
import type { Contact } from '../schemas/contact.js';
import { showValue } from '../shared/describe.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { isIterable } from '../shared/guards.js';
import { readContacts } from './listing.js';
import { mergeRow, readRow, type Entry } from './rows.js';
import type {
  ContactSyncOptions,
  ContactSyncProgress,
  ContactSyncReport,
  ContactSyncResult,
  ContactSyncRow,
  ContactSyncRun,
  SyncedContacts,
} from './types.js';
import { writeEntry } from './write.js';

/** Times the account is read: once for the list, then again (at most) for writes it must settle. */
const READS = 3;
/** Most pages read ahead at once (the walk's own bound). */
const MAX_PREFETCH = 32;

/**
 * Makes the account's contacts match `rows`, one contact per number: creates the new numbers,
 * updates the contacts whose fields differ, writes nothing for the others. Returns the run: `await`
 * it for the `ContactSyncReport`. `contacts` is a client's `contacts` (`client.contacts.sync(rows)`
 * calls this).
 */
export function syncContacts(
  contacts: SyncedContacts,
  rows: Iterable<ContactSyncRow> | AsyncIterable<ContactSyncRow>,
  options: ContactSyncOptions = {},
): ContactSyncRun {
  if (!isIterable(rows))
    throw new InvalidArgumentError(
      `contacts.sync: \`rows\` must be an array (or any iterable) of rows such as { phone, name }, got ${showValue(rows)}.`,
    );
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError(
      `contacts.sync: the options must be an object such as { concurrency: 8 }, got ${showValue(options)}.`,
    );
  const job = new SyncJob(contacts, rows, checkRunOptions('contacts.sync', options));
  return new Run(job.run(), job.work);
}

/** One sync: reads the rows, then the account, then writes, counting. */
class SyncJob {
  readonly work: RunWork<ContactSyncResult, ContactSyncProgress>;
  readonly #contacts: SyncedContacts;
  readonly #rows: Iterable<unknown> | AsyncIterable<unknown>;
  readonly #settings: RunSettings;
  readonly #counts = { total: 0, created: 0, updated: 0, unchanged: 0, failed: 0, merged: 0 };
  /** Every result, for a reader that starts after the run. */
  readonly #results: ContactSyncResult[] = [];
  /** Contacts of the account read. */
  #read = 0;
  /** Writes under way: at most `concurrency`. */
  #writing = 0;
  /** The `inFlight` of the last progress event. */
  #reportedInFlight = 0;
  #aborted = false;

  constructor(contacts: SyncedContacts, rows: Iterable<unknown> | AsyncIterable<unknown>, settings: RunSettings) {
    this.#contacts = contacts;
    this.#rows = rows;
    this.#settings = settings;
    this.work = new RunWork(() => this.#results);
  }

  async run(): Promise<ContactSyncReport> {
    const { signal, concurrency } = this.#settings;
    const onAbort = () => this.work.poke();
    signal?.addEventListener('abort', onAbort);
    try {
      let entries = await this.#readRows();
      for (let read = 1; entries.length > 0 && this.#goesOn(); read++) {
        this.#progress();
        const wanted = new Set(entries.map((entry) => entry.digits));
        const stored = await readContacts(this.#contacts, wanted, {
          signal,
          prefetch: Math.min(concurrency, MAX_PREFETCH),
          onPage: (count) => {
            this.#read += count;
            this.#progress();
          },
        });
        entries = await this.#writeAll(entries, (entry) => stored.get(entry.digits), read === READS);
      }
    } catch (error) {
      // The signal stopped the read of the account: nothing more is written.
      if (AbortError.is(error) && signal?.aborted === true) this.#aborted = true;
      else this.work.fail(error);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    await this.work.drain();
    if (this.#reportedInFlight !== 0) this.#progress();
    return this.work.end({ ...this.#counts, aborted: this.#aborted });
  }

  /** The rows, one entry per valid number; a row that cannot be synced is failed at once. */
  async #readRows(): Promise<Entry[]> {
    const entries = new Map<string, Entry>();
    for await (const value of this.#rows) {
      if (!this.#goesOn()) break;
      const row = (this.#counts.total += 1);
      const read = readRow(value, row);
      if (read.error === undefined) mergeRow(entries, read, row);
      else this.#report({ row, phone: read.phone, status: 'failed', error: read.error });
    }
    return [...entries.values()];
  }

  /** Writes each entry, up to `concurrency` at once; resolves with those to write again after the next read. */
  async #writeAll(entries: Entry[], storedOf: (entry: Entry) => Contact | undefined, last: boolean) {
    const { concurrency, signal } = this.#settings;
    const again: Entry[] = [];
    for (const entry of entries) {
      await this.work.room(
        () => signal?.aborted === true || (this.#writing < concurrency && this.work.channel.hasRoom()),
      );
      if (!this.#goesOn()) break;
      this.#writing += 1;
      this.work.start(this.#write(entry, storedOf(entry), last, again));
    }
    await this.work.drain();
    return again;
  }

  async #write(entry: Entry, stored: Contact | undefined, last: boolean, again: Entry[]): Promise<void> {
    const outcome = await writeEntry(this.#contacts, entry, stored, this.#settings.signal).then(
      (written) => ({ written }),
      (error: unknown) => ({ error }),
    );
    this.#writing -= 1;
    this.work.poke();
    if ('error' in outcome) {
      const { error } = outcome;
      // The signal stopped its wait for the rate window: it was never written.
      if (AbortError.is(error)) this.#aborted = true;
      // The service is out of reach (the client retried already): the sync stops.
      else if (ConnectionError.is(error) && !error.mayHaveBeenProcessed) throw error;
      else this.#settle(entry, { status: 'failed', error: failureOf(error) });
    } else if (outcome.written.pending === undefined) this.#settle(entry, outcome.written);
    else if (last) this.#settle(entry, { status: 'failed', error: failureOf(outcome.written.pending.error) });
    else {
      entry.pending = outcome.written.pending;
      again.push(entry);
    }
  }

  /** Reports the outcome of the entry's last row, then its earlier rows as merged into it. */
  #settle(entry: Entry, outcome: Pick<ContactSyncResult, 'status' | 'contactId' | 'error'>): void {
    this.#report({ row: entry.row, phone: entry.phone, ...outcome });
    const contact = outcome.contactId === undefined ? {} : { contactId: outcome.contactId };
    for (const row of entry.merged) this.#report({ row, phone: entry.phone, status: 'merged', ...contact });
  }

  #report(result: ContactSyncResult): void {
    this.#counts[result.status] += 1;
    this.#results.push(result);
    this.#progress();
    this.work.push(result);
  }

  #progress(): void {
    this.#reportedInFlight = this.#writing;
    this.work.progress({ ...this.#counts, read: this.#read, inFlight: this.#writing });
  }

  /** False once the run failed or the signal aborted it (then the report says aborted). */
  #goesOn(): boolean {
    if (this.#settings.signal?.aborted === true) this.#aborted = true;
    return !this.#aborted && this.work.failure === undefined;
  }
}

/** Why a write failed, in the report's words. */
function failureOf(error: unknown): ContactSyncResult['error'] {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  if (InvalidArgumentError.is(error)) return { code: 'INVALID_ROW', message };
  return { code: typeof code === 'string' ? code : error instanceof Error ? error.name : 'UNKNOWN', message };
}
