// The CSV of `bizmsg bulk`, read with csv-parse as a stream: its header, its row count (for the
// progress bar), and its rows by column name with the line each starts on. A row over 1 MiB stops
// the parser before it is held whole (csv-parse's `max_record_size`), naming its line.
import { createReadStream } from 'node:fs';
import { CsvError, parse, type Info } from 'csv-parse';
import { CliUsageError } from './args.js';

/** The longest row, in bytes (design.md: 1 MiB); a phone and a template's parameters take far less. */
export const MAX_ROW_BYTES = 1024 * 1024;

/** How much of csv-parse's own message is shown: it may quote a field of the file. */
const SHOWN_ERROR_CHARS = 300;

/** A row of the CSV: its fields by column name, and the line it starts on (the header is line 1). */
export interface CsvRow {
  readonly line: number;
  readonly fields: Readonly<Record<string, string>>;
}

/** What csv-parse yields with `info: true`. */
interface ParsedRow {
  readonly record: Record<string, string>;
  readonly info: Info;
}

function parser(file: string, onHeader?: (header: string[]) => void): AsyncIterable<ParsedRow> {
  // A row with too few or too many fields still comes through: it fails alone, it never stops the job.
  const rows = parse({
    bom: true,
    trim: true,
    skip_empty_lines: true,
    relax_column_count: true,
    max_record_size: MAX_ROW_BYTES,
    info: true,
    columns: (header: string[]) => {
      onHeader?.(header);
      return header;
    },
  });
  const input = createReadStream(file);
  // pipe() does not pass a read error on (a missing file): the rows end with it, so their reader throws it.
  input.on('error', (error) => rows.destroy(error));
  // Once the parser stops (a row too long), the rest of the file is not read.
  rows.on('close', () => input.destroy());
  return input.pipe(rows);
}

/** The header and the number of rows, read once before anything is sent; a CSV that cannot be read is refused. */
export async function surveyCsv(file: string): Promise<{ header: string[]; rows: number }> {
  let header: string[] = [];
  let rows = 0;
  try {
    for await (const _ of parser(file, (found) => (header = found))) rows += 1;
  } catch (error) {
    throw new CliUsageError(`${csvProblem(file, error)}. Nothing was sent.`);
  }
  return { header, rows };
}

/** The rows of the CSV, streamed (the file is opened at the first read); a problem found on the way throws, saying what it is. */
export async function* csvRows(file: string): AsyncGenerator<CsvRow> {
  try {
    for await (const { record, info } of parser(file)) yield { line: startLine(record, info), fields: record };
  } catch (error) {
    throw new Error(csvProblem(file, error), { cause: error });
  }
}

/** csv-parse counts the line a row ends on; a quoted field may hold line breaks, so it starts that many lines before. */
function startLine(record: Record<string, string>, info: Info): number {
  let breaks = 0;
  for (const value of Object.values(record)) breaks += value.match(/\r\n|\r|\n/g)?.length ?? 0;
  return info.lines - breaks;
}

/** What is wrong with the CSV, in a sentence naming the file and, where csv-parse knows it, the line. */
function csvProblem(file: string, error: unknown): string {
  if (error instanceof CsvError && error.code === 'CSV_MAX_RECORD_SIZE') {
    const { lines } = error as CsvError & { lines?: number };
    return `${file}: the row at line ${lines ?? '?'} is longer than 1 MiB (a phone number and a template's parameters take far less): fix or remove it`;
  }
  const message = error instanceof Error ? error.message : String(error);
  const shown = message.length > SHOWN_ERROR_CHARS ? `${message.slice(0, SHOWN_ERROR_CHARS)}…` : message;
  return `cannot read the CSV ${file}: ${shown}`;
}
