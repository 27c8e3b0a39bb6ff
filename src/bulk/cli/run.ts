// `bizmsg bulk` once its command line is read: checks the CSV against the template, sends with
// sendBulk on a fileJournal under the progress display (started once the journal has opened), and
// prints the report. Whatever ends the run (its end, an error, Ctrl-C), the display stops and the
// terminal gets its cursor back.
import { InvalidArgumentError, Variant1Client, Variant2Client, type ClientOptions } from '../../index.js';
import { fileJournal } from '../file-journal.js';
import type { BulkJournal } from '../journal.js';
import { sendBulk } from '../send-bulk.js';
import type { BulkClient, BulkMessage } from '../types.js';
import { CliUsageError, type BulkCommand } from './args.js';
import { csvRows, surveyCsv } from './csv.js';
import { checkHeader } from './header.js';
import { say, stderrLogger } from './output.js';
import { laterProgress, startProgress, type Progress } from './progress.js';
import { RateWindow } from './rate-window.js';
import { Listing, reportText } from './report-text.js';
import { RowPlaces, type KeyedRow } from './row-places.js';
import { readSuppressed, OPTED_OUT } from './suppress-list.js';
import { loadTemplate, type RowTemplate } from './template.js';
import { phoneDigits } from '../../shared/phone.js';

/** Exit code of a run quit by a second Ctrl-C (128 + SIGINT), as shells report it. */
const QUIT = 130;

/** Checks the CSV against the template, then sends; resolves with the exit code. */
export async function runBulk(command: BulkCommand): Promise<number> {
  const template = await loadTemplate(command.templates, command.template, command.language);
  const { header, rows: total } = await surveyCsv(command.csv);
  checkHeader(header, template, command);
  const suppressed = await readSuppressed(command.suppress);
  const { client, window } = watchedClient(command.variant);
  const controller = new AbortController();
  const progress = laterProgress(() => startProgress(total, window, `${command.csv} (journal ${command.journal})`));
  const release = onInterrupt(controller, progress, 'the sends in flight finish');
  try {
    const rows = new RowPlaces();
    const run = sendBulk<KeyedRow, BulkClient>(client, {
      id: command.id,
      recipients: rows.keyed(csvRows(command.csv)),
      key: (row) => row.key,
      message: (row) => messageOf(row, template, command),
      journal: openedThen(fileJournal(command.journal), () => progress.start()),
      concurrency: command.concurrency,
      signal: controller.signal,
      resendUnknown: command.resendUnknown,
      expected: total,
      ...(command.suppress.length === 0
        ? {}
        : { suppress: (_row: KeyedRow, to: string) => suppressed.has(phoneDigits(to, 'to')) && OPTED_OUT }),
    });
    run.on('progress', (counts) => progress.update(counts));
    const listing = new Listing();
    for await (const result of run.results()) listing.add(result, rows.placeOf(result));
    const report = await run;
    progress.stop();
    say(process.stdout, reportText(report, listing, command.journal));
    return report.failed === 0 && !report.aborted ? 0 : 1;
  } finally {
    progress.stop();
    release();
  }
}

/** `journal`, calling `opened` once it has opened for a run (not when it refuses one). */
function openedThen(journal: BulkJournal, opened: () => void): BulkJournal {
  return {
    ...journal,
    async open(id) {
      const run = await journal.open(id);
      opened();
      return run;
    },
  };
}

/**
 * Ctrl-C (or SIGTERM) aborts the run: `inFlight` (what still finishes) is said on the display; a
 * second one quits at once (a send in flight is then `unknown` to the next run, never resent). The
 * display stops on any exit. Returns what removes these handlers.
 */
export function onInterrupt(controller: AbortController, progress: Progress, inFlight: string): () => void {
  const interrupt = () => {
    if (!controller.signal.aborted) {
      controller.abort();
      progress.note(`stopping: ${inFlight} (Ctrl-C again quits at once)`);
      return;
    }
    progress.stop();
    process.exit(QUIT);
  };
  const stop = () => progress.stop();
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  process.on('exit', stop);
  return () => {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    process.off('exit', stop);
  };
}

/** A client of `variant` from the environment (BIZMSG_API_KEY, BIZMSG_BASE_URL), logging inertly on stderr, its rate window watched. */
export function watchedClient(variant: 1 | 2) {
  const window = new RateWindow();
  const options = { onWait: window.onWait, logger: stderrLogger };
  const client = variant === 2 ? clientOf(Variant2Client, options) : clientOf(Variant1Client, options);
  window.watch(client);
  return { client, window };
}

/** A client made from the environment; a key or URL missing or unusable there is a mistake in the command (exit 2). */
function clientOf<C>(Client: new (options: ClientOptions) => C, options: ClientOptions): C {
  if (!process.env.BIZMSG_API_KEY)
    throw new CliUsageError('No API key: set the BIZMSG_API_KEY environment variable. Nothing was sent.');
  if (!process.env.BIZMSG_BASE_URL)
    throw new CliUsageError(
      'No service URL: set the BIZMSG_BASE_URL environment variable (ending with /api/v1). Nothing was sent.',
    );
  try {
    return new Client(options);
  } catch (error) {
    if (InvalidArgumentError.is(error)) throw new CliUsageError(`${error.message} Nothing was sent.`);
    throw error;
  }
}

function messageOf({ row }: KeyedRow, template: RowTemplate, command: BulkCommand): BulkMessage {
  const content = template.content(row);
  const to = row.phone ?? '';
  return command.variant === 2
    ? { to, messaging_account_id: command.account, type: 'template', content }
    : { to, ...content };
}
