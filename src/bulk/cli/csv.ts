// The CSV of `bizmsg bulk` and `bizmsg contacts import`, read with bizmsg/bulk's own reader
// (`readCsv`'s rows): its header, its row count (for the progress bar), and its rows; what is wrong
// with the file said as a sentence naming it, the line and what to do.
import { createReadStream } from 'node:fs';
import { csvRows as rowsOf } from '../csv/reader.js';
import { CsvReadError } from '../errors.js';
import { MAX_ROW_BYTES, type CsvRow } from '../csv/read-csv.js';
import { CliUsageError } from './args.js';

/** The header and the number of rows, read once before anything is sent; a CSV that cannot be read is refused. */
export async function surveyCsv(file: string): Promise<{ header: string[]; rows: number }> {
  let header: string[] = [];
  let rows = 0;
  try {
    for await (const _ of rowsOf(createReadStream(file), MAX_ROW_BYTES, (found) => (header = found))) rows += 1;
  } catch (error) {
    throw new CliUsageError(`${problemOf(file, error)}. Nothing was sent.`, { cause: error });
  }
  return { header, rows };
}

/** The rows of the CSV, streamed (the file is opened at the first read); a problem found on the way throws, saying what it is. */
export async function* csvRows(file: string): AsyncGenerator<CsvRow> {
  try {
    yield* rowsOf(createReadStream(file), MAX_ROW_BYTES, () => undefined);
  } catch (error) {
    throw new Error(problemOf(file, error), { cause: error });
  }
}

/** What is wrong with the CSV, in a sentence naming the file and, where it is known, the line. */
function problemOf(file: string, error: unknown): string {
  if (!(error instanceof CsvReadError)) return `cannot read the CSV ${file}: ${String(error)}`;
  if (error.problem === 'encoding') return `${file}: ${error.message}`;
  if (error.problem === 'row-too-long')
    return `${file}: ${error.message} (a phone number and a template's parameters take far less): fix or remove it`;
  return `cannot read the CSV ${file}: ${error.message}`;
}
