// sendBulk: one message per recipient key, at most once. Each key is claimed in the journal before
// its request leaves and gets its outcome after; a run of the same job again resumes from there.
import { RunWork } from '../runs/work.js';
import { BulkRun } from './bulk-run.js';
import { isNote, noteKey, type BulkJournal, type JournalEntry } from './journal.js';
import { checkBulkOptions, type BulkSettings, type SendBulkOptions, type Suppression } from './options.js';
import { readRow, type Row } from './row.js';
import { sendOne } from './send-one.js';
import type { BulkClient, BulkFailure, BulkProgress, BulkReport, BulkResult, BulkStatus } from './types.js';

/**
 * Sends one message per recipient key of `options.recipients`, at most once each, and returns
 * the run: `await` it for the `BulkReport`.
 *
 * @example
 * ```ts
 * const report = await sendBulk(client, {
 *   id: 'order-update-2026-11', recipients: customers(), journal: fileJournal('./order-update.journal'),
 *   message: (c) => ({ to: c.phone, messaging_account_id: 1, type: 'text', content: { body: `Hi ${c.name}` } }),
 * });
 * ```
 */
export function sendBulk<R, C extends BulkClient>(client: C, options: SendBulkOptions<R, NoInfer<C>>): BulkRun {
  const settings = checkBulkOptions(client, options as SendBulkOptions<R>);
  const job = new BulkJob(client, settings);
  return new BulkRun(settings.id, job.run(), job.work);
}

/** The earlier outcome of a key claimed when its run stopped: its request may have left. */
const INTERRUPTED = {
  code: 'INTERRUPTED',
  message: 'the run stopped after this recipient was claimed; its message may have been sent, so it is not sent again',
};

/**
 * Rows being handled at once beyond the sends (outcomes and notes being recorded): the run reads
 * no further recipient while this many wait, so that memory holds a window of the list, not all of it.
 */
const MAX_PENDING = 1024;

/** A row that can be sent. */
type Sendable = Extract<Row, { body: object }>;

/** What to record of a row: its journal key and entry. */
interface Recording {
  readonly key: string;
  readonly entry: JournalEntry;
}

/** One run of a bulk job: reads the recipients, keeps up to `concurrency` sends going, counts. */
class BulkJob<R> {
  readonly work: RunWork<BulkResult, BulkProgress>;
  readonly #client: BulkClient;
  readonly #settings: BulkSettings<R>;
  readonly #counts = { total: 0, sent: 0, failed: 0, unknown: 0, skipped: 0, suppressed: 0 };
  /** The run's number, once the journal is open. */
  #run = 0;
  /** Keys being handled now: a repeat of one is skipped at once. */
  readonly #active = new Set<string>();
  /** Sends under way (claim and request): at most `concurrency`. */
  #sending = 0;
  /** The `inFlight` of the last progress event. */
  #reportedInFlight = 0;
  #aborted = false;

  constructor(client: BulkClient, settings: BulkSettings<R>) {
    this.#client = client;
    this.#settings = settings;
    this.work = new RunWork(() => runResults(settings.journal, this.#run));
  }

  async run(): Promise<BulkReport> {
    const { journal, signal } = this.#settings;
    const onAbort = () => this.work.poke();
    signal?.addEventListener('abort', onAbort);
    try {
      // Refused (another job's journal, or one serving a run): the journal was not opened, so it is not closed either.
      this.#run = await journal.open(this.#settings.id);
      await this.#readAll().catch((error: unknown) => this.work.fail(error));
      await this.work.drain();
      await journal.close();
    } catch (error) {
      this.work.fail(error);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    if (this.#reportedInFlight !== 0) this.#progress();
    const run = this.#run;
    // Every send has ended (a run waits for them): none pending. Its results, read again from the journal.
    return this.work.end({
      id: this.#settings.id,
      ...this.#counts,
      pending: 0,
      aborted: this.#aborted,
      results: () => runResults(journal, run),
    });
  }

  async #readAll(): Promise<void> {
    const { recipients, signal } = this.#settings;
    let index = 0;
    for await (const recipient of recipients) {
      if (this.work.failure !== undefined) return;
      if (signal?.aborted) {
        this.#aborted = true;
        return;
      }
      index += 1;
      this.#counts.total += 1;
      const row = await readRow(recipient, index, this.#settings);
      // A row that cannot be sent is no key's outcome: failed on its own, a repeat of it too.
      if (row.error !== undefined) this.work.start(this.#record(this.#note(row, index, 'failed')));
      else if (this.#active.has(row.key)) this.work.start(this.#record(this.#note(row, index, 'skipped')));
      else {
        this.#active.add(row.key);
        this.#sending += 1;
        this.work.start(this.#handle(row, index, recipient).finally(() => this.#active.delete(row.key)));
      }
      await this.#room();
    }
  }

  /** Claims the row's key, sends it (holding one of the `concurrency` slots), then records and reports the outcome. */
  async #handle(row: Sendable, index: number, recipient: R): Promise<void> {
    let record: Recording | undefined;
    try {
      record = await this.#claimAndSend(row, index, recipient);
    } finally {
      this.#sending -= 1;
      this.work.poke();
    }
    if (record !== undefined) await this.#record(record);
  }

  /**
   * The row's record: a repeat, an earlier run's outcome, its suppression, or the outcome of its
   * send (none when it never left).
   */
  async #claimAndSend(row: Sendable, index: number, recipient: R): Promise<Recording | undefined> {
    const { journal, resendUnknown, signal } = this.#settings;
    const run = this.#run;
    const held = await this.#suppression(recipient, row);
    if (held !== undefined && 'failure' in held) return this.#note(row, index, 'failed', held.failure);
    // A suppressed row is claimed as such: in one step, so that no other run sends it meanwhile.
    const claim: JournalEntry = held?.entry ?? { to: row.to, status: 'claimed', run };
    const found = await journal.claim(row.key, claim);
    if (found?.run === run) return this.#note(row, index, 'skipped');
    // An earlier outcome stands (sent, or perhaps sent); a suppressed key is never resent.
    if (held !== undefined && found === undefined) return { key: row.key, entry: claim };
    const resend = held === undefined && resendUnknown && (found?.status === 'unknown' || found?.status === 'claimed');
    if (found !== undefined && !resend) {
      const earlier: JournalEntry =
        found.status === 'claimed' ? { to: found.to, status: 'unknown', error: INTERRUPTED, run } : { ...found, run };
      return { key: row.key, entry: earlier };
    }
    if (found !== undefined) await journal.put(row.key, { to: row.to, status: 'claimed', run });
    const outcome = await sendOne(this.#client, row.body, signal);
    if (outcome.status === 'unsent') {
      // The request was not processed, so a later run may send it: unclaimed, and the job stops
      // (aborted, or the service out of reach or refusing the key: the run rejects with the client's error).
      await journal.delete(row.key);
      if (outcome.cause === undefined) this.#aborted = true;
      else this.work.fail(outcome.cause);
      return undefined;
    }
    return { key: row.key, entry: { to: row.to, ...outcome, run } };
  }

  /**
   * What `suppress` says of the row: undefined to send it, the entry of a suppressed key, or the
   * failure of a `suppress` that threw (then the row is a note: the next run asks again).
   */
  async #suppression(
    recipient: R,
    row: Sendable,
  ): Promise<{ entry: JournalEntry } | { failure: BulkFailure } | undefined> {
    const { suppress } = this.#settings;
    if (suppress === undefined) return undefined;
    let said: Suppression;
    try {
      said = await suppress(recipient, row.to);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { failure: { code: 'SUPPRESS_FAILED', message: `suppress() threw: ${message}` } };
    }
    if (said === false || said === undefined || said === null || said === '') return undefined;
    const reason = typeof said === 'string' ? said : 'held back by suppress()';
    const error = { code: 'SUPPRESSED', message: reason };
    return { entry: { to: row.to, status: 'suppressed', error, run: this.#run } };
  }

  /** The note of row `index`: a row that is no key's outcome. */
  #note(row: Row, index: number, status: 'failed' | 'skipped', failure = row.error): Recording {
    const entry = { to: row.to, status, run: this.#run, key: row.key };
    return { key: noteKey(this.#run, index), entry: failure === undefined ? entry : { ...entry, error: failure } };
  }

  /** Records the entry, then reports its result. */
  async #record({ key, entry }: Recording): Promise<void> {
    await this.#settings.journal.put(key, entry);
    this.#report(resultOf(entry.key ?? key, entry));
  }

  #report(result: BulkResult): void {
    this.#counts[result.status] += 1;
    this.#progress();
    this.work.push(result);
  }

  #progress(): void {
    this.#reportedInFlight = this.#sending;
    const { sent, failed, unknown, skipped, suppressed } = this.#counts;
    this.work.progress({
      id: this.#settings.id,
      ...this.#counts,
      inFlight: this.#sending,
      done: sent + failed + unknown + skipped + suppressed,
      expected: this.#settings.expected,
    });
  }

  /** Waits until another recipient may be read: a send slot is free, few rows wait, and no reader is full. */
  #room(): Promise<void> {
    const { concurrency, signal } = this.#settings;
    return this.work.room(
      () =>
        signal?.aborted === true ||
        (this.#sending < concurrency && this.work.tasks < MAX_PENDING && this.work.channel.hasRoom()),
    );
  }
}

/** The results of run `run` as the journal holds them: its keys' outcomes (under their own status) and its notes. */
async function* runResults(journal: BulkJournal, run: number): AsyncGenerator<BulkResult> {
  for await (const [key, entry] of journal.entries()) {
    if (isNote(key) ? entry.run === run : entry.run >= run) yield resultOf(entry.key ?? key, entry);
  }
}

/** The public result of a key from what the journal holds. */
function resultOf(key: string, entry: JournalEntry): BulkResult {
  const status: BulkStatus = entry.status === 'claimed' ? 'unknown' : entry.status;
  return {
    key,
    to: entry.to,
    status,
    ...(entry.messageId === undefined ? {} : { messageId: entry.messageId }),
    ...(entry.error === undefined ? {} : { error: entry.error }),
  };
}
