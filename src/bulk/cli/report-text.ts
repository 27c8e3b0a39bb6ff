// The report `bizmsg bulk` prints at the end: the counts, then the rows that failed or may have been
// sent, each by its CSV line, with why (the first LISTED of each; the counts say how many more).
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

/** The report as lines of text, every value from the CSV or the service made printable. */
export function reportText(report: BulkReport, listing: Listing): string {
  const lines = [
    `bulk job ${printable(JSON.stringify(report.id))}${report.aborted ? ' (stopped before the end: run the same command to go on)' : ''}`,
    ...(['total', 'sent', 'failed', 'unknown', 'skipped'] as const).map(
      (name) => `  ${name.padEnd(8)} ${report[name]}`,
    ),
  ];
  const list = (title: string, rows: readonly ListedRow[], count: number) => {
    if (count === 0) return;
    lines.push(title);
    for (const row of [...rows].sort(byLine)) lines.push(`  ${rowText(row)}`);
    if (count > rows.length) lines.push(`  … and ${count - rows.length} more`);
  };
  list('failed:', listing.failed, report.failed);
  list(
    'unknown (may have been sent, so not sent again; --resend-unknown sends them again, once):',
    listing.unknown,
    report.unknown,
  );
  return lines.join('\n');
}

/** Rows in the order of the CSV (the results come in the order their sends end). */
function byLine(a: ListedRow, b: ListedRow): number {
  return (a.place?.line ?? Number.POSITIVE_INFINITY) - (b.place?.line ?? Number.POSITIVE_INFINITY);
}

/** `line 7  +49 151 1234 5678  INVALID_PHONE: …`: where the row is, its phone as the CSV has it, why. */
function rowText({ result, place }: ListedRow): string {
  const where = place === undefined ? printable(result.key) : `line ${place.line}`;
  const given = place?.phone ?? result.to;
  const phone = given === '' ? '(no phone)' : printable(cut(given));
  const why = result.error === undefined ? '' : `  ${printable(result.error.code)}: ${printable(result.error.message)}`;
  return `${where}  ${phone}${why}`;
}

/** How much of a phone cell is shown: a row may hold 1 MiB, most of it junk. */
const SHOWN_PHONE_CHARS = 40;

function cut(text: string): string {
  return text.length > SHOWN_PHONE_CHARS ? `${text.slice(0, SHOWN_PHONE_CHARS)}…` : text;
}
