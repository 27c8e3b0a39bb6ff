// The CSV of `bizmsg bulk`, read with csv-parse as a stream: its header, its row count (for the
// progress bar), and its rows as objects by column name.
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { CliUsageError } from './args.js';

/** A row by column name. */
export type CsvRow = Record<string, string>;

function parser(file: string, onHeader?: (header: string[]) => void) {
  // A row with too few or too many fields still comes through: it fails alone, it never stops the job.
  const rows = parse({
    bom: true,
    trim: true,
    skip_empty_lines: true,
    relax_column_count: true,
    columns: (header: string[]) => {
      onHeader?.(header);
      return header;
    },
  });
  const input = createReadStream(file);
  // pipe() does not pass a read error on (a missing file): the rows end with it, so their reader throws it.
  input.on('error', (error) => rows.destroy(error));
  return input.pipe(rows);
}

/** The header and the number of rows, read once before anything is sent. */
export async function surveyCsv(file: string): Promise<{ header: string[]; rows: number }> {
  let header: string[] = [];
  let rows = 0;
  try {
    for await (const _ of parser(file, (found) => (header = found))) rows += 1;
  } catch (error) {
    throw new CliUsageError(`cannot read the CSV ${file}: ${(error as Error).message}`);
  }
  return { header, rows };
}

/** The rows of the CSV, streamed. */
export function csvRows(file: string): AsyncIterable<CsvRow> {
  return parser(file) as AsyncIterable<CsvRow>;
}
