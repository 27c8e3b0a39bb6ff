// `bizmsg contacts import`: the rows of a CSV made the account's contacts with `contacts.sync`, under
// the progress display of `bizmsg bulk`, and the report, each failed row named by its CSV line.
// Columns `phone`, `name`, `email`, `tags` (separated by `;`); any other column a custom field; an
// empty cell leaves its field as the contact has it.
import type { ContactSyncRow } from '../../index.js';
import type { ImportCommand } from './args.js';
import type { CsvRow } from '../csv/read-csv.js';
import { csvRows, surveyCsv } from './csv.js';
import { checkImportHeader } from './header.js';
import { say } from './output.js';
import { startProgress, type Tally } from './progress.js';
import { importReportText, LISTED, type FailedImportRow } from './report-text.js';
import type { RowPlace } from './row-places.js';
import { onInterrupt, watchedClient } from './run.js';

/** What the import counts: rows done by outcome, and the account's contacts read. */
const IMPORT_TALLY: Tally = {
  verb: 'importing',
  done: ['created', 'updated', 'unchanged', 'failed', 'merged'],
  more: ['read'],
};

/** The columns that are a contact's own fields; any other is a custom field. */
const OWN_COLUMNS = new Set(['phone', 'name', 'email', 'tags']);

/** Longest phone cell kept for the report (it shows 40 characters and an ellipsis). */
const KEPT_PHONE_CHARS = 41;

/** Checks the CSV, then syncs its rows; resolves with the exit code. */
export async function runImport(command: ImportCommand): Promise<number> {
  const { header, rows: total } = await surveyCsv(command.csv);
  checkImportHeader(header, command.csv);
  const { client, window } = watchedClient(command.variant);
  const controller = new AbortController();
  const progress = startProgress(total, window, command.csv, IMPORT_TALLY);
  const release = onInterrupt(controller, progress, 'the writes in flight finish');
  try {
    const places: RowPlace[] = [];
    const run = client.contacts.sync(contactRows(csvRows(command.csv), places), {
      concurrency: command.concurrency,
      signal: controller.signal,
    });
    run.on('progress', (counts) => progress.update(counts));
    const failed: FailedImportRow[] = [];
    for await (const result of run.results())
      if (result.status === 'failed' && failed.length < LISTED) failed.push({ result, place: places[result.row - 1]! });
    const report = await run;
    progress.stop();
    say(process.stdout, importReportText(command.csv, report, failed));
    return report.failed === 0 && !report.aborted ? 0 : 1;
  } finally {
    progress.stop();
    release();
  }
}

/** The CSV's rows as contacts.sync takes them; the place of row n (from 1) is `places[n - 1]`. */
async function* contactRows(rows: AsyncIterable<CsvRow>, places: RowPlace[]): AsyncGenerator<ContactSyncRow> {
  for await (const { line, row } of rows) {
    const phone = row.phone ?? '';
    places.push({ line, phone: phone.slice(0, KEPT_PHONE_CHARS) });
    yield contactRow(phone, row);
  }
}

/** A row's contact: its own fields and its other columns as custom fields, the empty cells left out. */
export function contactRow(phone: string, fields: Readonly<Record<string, string>>): ContactSyncRow {
  const given = (name: string) => (fields[name] === undefined || fields[name] === '' ? undefined : fields[name]);
  const tags = given('tags')
    ?.split(';')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  const custom = Object.entries(fields).filter(([column, value]) => !OWN_COLUMNS.has(column) && value !== '');
  return {
    phone,
    ...(given('name') === undefined ? {} : { name: given('name') }),
    ...(given('email') === undefined ? {} : { email: given('email') }),
    ...(tags === undefined ? {} : { tags }),
    ...(custom.length === 0 ? {} : { custom_fields: Object.fromEntries(custom) }),
  };
}
