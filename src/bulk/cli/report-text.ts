// The report `bizmsg bulk` and `bizmsg contacts import` print at the end: the counts, then the rows
// that failed (or, of a bulk send, may have been sent), each by its CSV line, with why (the first
// LISTED of each; the counts say how many more).
import type { ContactSyncReport, ContactSyncResult } from '../../index.js';
import { printable } from '../../shared/printable.js';
import type { BulkReport, BulkResult } from '../types.js';
import type { RowPlace } from './row-places.js';

/** Rows listed per status; the counts say how many more there were. */
export const LISTED = 100;

/** A row to list: its result and where it is in the CSV (undefined: not read in this run). */
export interface ListedRow {
  readonly result: BulkResult;
  readonly place: RowPlace | undefined;
}

/** The rows of a run that failed or are unknown, the first LISTED of each. */
export class Listing {
  readonly failed: ListedRow[] = [];
  readonly unknown: ListedRow[] = [];

  /** Keeps `result` if it is one to list and there is room. */
  add(result: BulkResult, place: RowPlace | undefined): void {
    const list = result.status === 'failed' ? this.failed : result.status === 'unknown' ? this.unknown : undefined;
    if (list !== undefined && list.length < LISTED) list.push({ result, place });
  }
}

/**
 * The report as lines of text, every value from the CSV or the service made printable; it ends
 * with the command that lists each row's outcome.
 */
export function reportText(report: BulkReport, listing: Listing, journal: string): string {
  const counts: (keyof BulkReport)[] = ['total', 'sent', 'failed', 'unknown', 'skipped'];
  const lines = [
    `bulk job ${printable(JSON.stringify(report.id))}${report.aborted ? STOPPED : ''}`,
    ...countLines(report, report.suppressed === 0 ? counts : [...counts, 'suppressed']),
  ];
  const shown = (rows: readonly ListedRow[]) => rows.map(({ result, place }) => shownRow(result, place, result.key));
  list(lines, 'failed:', shown(listing.failed), report.failed);
  list(
    lines,
    'unknown (may have been sent, so not sent again; --resend-unknown sends them again, once):',
    shown(listing.unknown),
    report.unknown,
  );
  lines.push(`each row's outcome: bizmsg bulk report --journal ${printable(shellWord(journal))}`);
  return lines.join('\n');
}

/** A word a shell reads as it is: quoted when it holds anything but letters, digits and `/._-`. */
function shellWord(text: string): string {
  return /^[\w/.-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** A failed row of an import, and where it is in the CSV. */
export interface FailedImportRow {
  readonly result: ContactSyncResult;
  readonly place: RowPlace;
}

/** The report of `bizmsg contacts import` as lines of text; `failed` holds the first LISTED failed rows. */
export function importReportText(file: string, report: ContactSyncReport, failed: readonly FailedImportRow[]): string {
  const lines = [
    `contacts import of ${printable(file)}${report.aborted ? STOPPED : ''}`,
    ...countLines(report, ['total', 'created', 'updated', 'unchanged', 'failed', 'merged']),
  ];
  const shown = failed.map(({ result, place }) => shownRow(byLine(result), place, `row ${result.row}`));
  list(lines, 'failed:', shown, report.failed);
  return lines.join('\n');
}

/** The result with its error's `row N, ` left out: the listed line names the row, one name is enough. */
function byLine(result: ContactSyncResult): ContactSyncResult {
  const prefix = `row ${result.row}, `;
  const { error } = result;
  if (error?.message.startsWith(prefix) !== true) return result;
  return { ...result, error: { ...error, message: error.message.slice(prefix.length) } };
}

const STOPPED = ' (stopped before the end: run the same command to go on)';

/** `  sent     8`: each count, the numbers in one column. */
function countLines<R>(report: R, names: readonly (keyof R & string)[]): string[] {
  const width = Math.max(...names.map((name) => name.length)) + 1;
  return names.map((name) => `  ${name.padEnd(width)} ${String(report[name])}`);
}

/** A row as the report lists it: its line (undefined: not read in this run), its phone as given, why. */
interface ShownRow {
  readonly line: number | undefined;
  readonly text: string;
}

/** Adds `title` and the rows (in the order of the CSV: results come in the order they end), if any. */
function list(lines: string[], title: string, rows: readonly ShownRow[], count: number): void {
  if (count === 0) return;
  lines.push(title);
  const byLine = (a: ShownRow, b: ShownRow) =>
    (a.line ?? Number.POSITIVE_INFINITY) - (b.line ?? Number.POSITIVE_INFINITY);
  for (const row of [...rows].sort(byLine)) lines.push(`  ${row.text}`);
  if (count > rows.length) lines.push(`  … and ${count - rows.length} more`);
}

/** `line 7  +49 151 1234 5678  INVALID_PHONE: …`: where the row is, its phone as the CSV has it, why. */
function shownRow(
  result: {
    readonly error?: { readonly code: string; readonly message: string } | undefined;
    readonly phone?: string;
    readonly to?: string;
  },
  place: RowPlace | undefined,
  unplaced: string,
): ShownRow {
  const where = place === undefined ? printable(unplaced) : `line ${place.line}`;
  const given = place?.phone ?? result.to ?? result.phone ?? '';
  const phone = given === '' ? '(no phone)' : printable(cut(given));
  const why = result.error === undefined ? '' : `  ${printable(result.error.code)}: ${printable(result.error.message)}`;
  return { line: place?.line, text: `${where}  ${phone}${why}` };
}

/** How much of a phone cell is shown: a row may hold 1 MiB, most of it junk. */
const SHOWN_PHONE_CHARS = 40;

function cut(text: string): string {
  return text.length > SHOWN_PHONE_CHARS ? `${text.slice(0, SHOWN_PHONE_CHARS)}…` : text;
}
