// sendBulk: one message per recipient key, at most once. Each key is claimed in the journal before
// its request leaves and gets its outcome after; a run of the same job again resumes from there.
import { BulkRun, type BulkProgressListener } from './bulk-run.js';
import type { JournalEntry } from './journal.js';
import { checkBulkOptions, type BulkSettings, type SendBulkOptions } from './options.js';
import { ResultChannel } from './result-channel.js';
import { readRow, type Row } from './row.js';
import { sendOne } from './send-one.js';
import type { BulkClient, BulkReport, BulkResult, BulkStatus } from './types.js';

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
  const channel = new ResultChannel();
  const listeners = new Set<BulkProgressListener>();
  const done = new BulkJob(client, settings, channel, listeners).run();
  // The caller awaits the run (or reads its results, which throw the same failure).
  done.catch(() => undefined);
  return new BulkRun(settings.id, done, channel, listeners);
}

/** The earlier outcome of a key claimed when its run stopped: its request may have left. */
const INTERRUPTED = {
  code: 'INTERRUPTED',
  message: 'the run stopped after this recipient was claimed; its message may have been sent, so it is not sent again',
};

/** One run of a bulk job: reads the recipients, keeps up to `concurrency` sends going, counts. */
class BulkJob<R> {
  readonly #client: BulkClient;
  readonly #settings: BulkSettings<R>;
  readonly #channel: ResultChannel;
  readonly #listeners: Set<BulkProgressListener>;
  readonly #counts = { total: 0, sent: 0, failed: 0, unknown: 0, skipped: 0 };
  /** Keys being handled now: a repeat of one is skipped at once. */
  readonly #active = new Set<string>();
  readonly #inFlight = new Set<Promise<void>>();
  #failure: { error: unknown } | undefined;
  #aborted = false;

  constructor(
    client: BulkClient,
    settings: BulkSettings<R>,
    channel: ResultChannel,
    listeners: Set<BulkProgressListener>,
  ) {
    this.#client = client;
    this.#settings = settings;
    this.#channel = channel;
    this.#listeners = listeners;
  }

  async run(): Promise<BulkReport> {
    const { journal } = this.#settings;
    try {
      const run = await journal.open(this.#settings.id);
      await this.#readAll(run).catch((error: unknown) => this.#fail(error));
      while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
      await journal.close();
    } catch (error) {
      this.#fail(error);
    }
    this.#channel.end(this.#failure?.error);
    if (this.#failure !== undefined) throw this.#failure.error;
    return { id: this.#settings.id, ...this.#counts, aborted: this.#aborted };
  }

  async #readAll(run: number): Promise<void> {
    const { recipients, signal, concurrency } = this.#settings;
    let index = 0;
    for await (const recipient of recipients) {
      if (this.#failure !== undefined) return;
      if (signal?.aborted) {
        this.#aborted = true;
        return;
      }
      index += 1;
      this.#counts.total += 1;
      const row = await readRow(recipient, index, this.#settings);
      if (this.#active.has(row.key)) {
        await this.#report(resultOf(row.key, { to: row.to, status: 'skipped' }));
        continue;
      }
      this.#active.add(row.key);
      const settled = this.#settle(row, run)
        .catch((error: unknown) => this.#fail(error))
        .finally(() => {
          this.#active.delete(row.key);
          this.#inFlight.delete(settled);
        });
      this.#inFlight.add(settled);
      if (this.#inFlight.size >= concurrency) await Promise.race(this.#inFlight);
    }
  }

  async #settle(row: Row, run: number): Promise<void> {
    const result = await this.#outcome(row, run);
    if (result !== undefined) await this.#report(result);
  }

  /** The row's result: an earlier run's outcome, a repeat, a row that cannot be sent, or a send. */
  async #outcome(row: Row, run: number): Promise<BulkResult | undefined> {
    const { journal, resendUnknown } = this.#settings;
    const entry = await journal.get(row.key);
    if (entry?.run === run) return resultOf(row.key, { to: row.to, status: 'skipped' });
    const resend = resendUnknown && (entry?.status === 'unknown' || entry?.status === 'claimed');
    if (entry !== undefined && !resend) {
      const earlier: JournalEntry =
        entry.status === 'claimed' ? { to: entry.to, status: 'unknown', error: INTERRUPTED, run } : { ...entry, run };
      await journal.put(row.key, earlier);
      return resultOf(row.key, earlier);
    }
    if (row.error !== undefined) return this.#record(row.key, { to: row.to, status: 'failed', error: row.error, run });
    await journal.put(row.key, { to: row.to, status: 'claimed', run });
    const outcome = await sendOne(this.#client, row.body, this.#settings.signal);
    if (outcome.status === 'unsent') {
      // The request never reached the service, so a later run may send it: unclaimed, and the job
      // stops (aborted, or the service out of reach: the run rejects with the client's error).
      await journal.delete(row.key);
      if (outcome.cause === undefined) this.#aborted = true;
      else this.#fail(outcome.cause);
      return undefined;
    }
    return this.#record(row.key, { to: row.to, ...outcome, run });
  }

  async #record(key: string, entry: JournalEntry): Promise<BulkResult> {
    await this.#settings.journal.put(key, entry);
    return resultOf(key, entry);
  }

  async #report(result: BulkResult): Promise<void> {
    this.#counts[result.status] += 1;
    const progress = { id: this.#settings.id, ...this.#counts, inFlight: this.#inFlight.size };
    for (const listener of this.#listeners) listener(progress);
    await this.#channel.push(result);
  }

  #fail(error: unknown): void {
    this.#failure ??= { error };
  }
}

/** The public result of a key from what the journal holds (or a repeat). */
function resultOf(
  key: string,
  entry: { to: string; status: BulkStatus | 'claimed'; messageId?: string; error?: BulkResult['error'] },
): BulkResult {
  const status = entry.status === 'claimed' ? 'unknown' : entry.status;
  return {
    key,
    to: entry.to,
    status,
    ...(entry.messageId === undefined ? {} : { messageId: entry.messageId }),
    ...(entry.error === undefined ? {} : { error: entry.error }),
  };
}
