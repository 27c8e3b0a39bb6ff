// The CSV of `bizmsg bulk` and `bizmsg contacts import`, decoded strictly (`csv-text.ts`) and read
// with csv-parse as a stream: its header, its row count (for the progress bar), and its rows by
// column name with the line each starts on, as an editor numbers it. A row over 1 MiB stops the
// parser before it is held whole (a field by csv-parse's `max_record_size`, a row of many fields by
// `CsvRowLimit`), naming its line.
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { CsvError, parse, type Info } from 'csv-parse';
import { CliUsageError } from './args.js';
import { CsvEncodingError, CsvRowLimit, CsvRowTooLongError, CsvText, lineBreaks } from './csv-text.js';

/** The longest row, in bytes (design.md: 1 MiB); a phone and a template's parameters take far less. */
export const MAX_ROW_BYTES = 1024 * 1024;

/** How much of csv-parse's own message is shown: it may quote a field of the file. */
const SHOWN_ERROR_CHARS = 300;

/** A row of the CSV: its fields by column name, and the line it starts on (the header is line 1). */
export interface CsvRow {
  readonly line: number;
  readonly fields: Readonly<Record<string, string>>;
}

/** What csv-parse yields with `info: true` and no `columns`: each record's fields, the header's too. */
interface ParsedRecord {
  readonly record: string[];
  readonly info: Info;
}

function parser(file: string): AsyncIterable<ParsedRecord> {
  // A row with too few or too many fields still comes through: it fails alone, it never stops the job.
  const records = parse({
    bom: true,
    trim: true,
    skip_empty_lines: true,
    relax_column_count: true,
    max_record_size: MAX_ROW_BYTES,
    // Every line break ends a row, as an editor shows the file (by default csv-parse takes the
    // first kind it meets, and a row ending in another kind runs on into the next).
    record_delimiter: ['\r\n', '\n', '\r'],
    info: true,
  });
  // A read error (a missing file), a byte that is not UTF-8 or the parser stopping (a row too long)
  // ends all three; the records' reader throws it. The rest of the file is not read.
  pipeline(createReadStream(file), new CsvText(), new CsvRowLimit(MAX_ROW_BYTES), records, () => undefined);
  return records;
}

/** The header (through `onHeader`) and the rows; what is wrong with the file is thrown as a sentence naming it and the line. */
async function* rowsOf(file: string, onHeader?: (header: string[]) => void): AsyncGenerator<CsvRow> {
  const lines = new LineCounter();
  let header: string[] | undefined;
  try {
    for await (const { record, info } of parser(file)) {
      const line = lines.startOf(record, info);
      if (header === undefined) {
        header = record;
        onHeader?.(header);
      } else yield { line, fields: fieldsOf(header, record) };
    }
  } catch (error) {
    throw new Error(csvProblem(file, error, lines), { cause: error });
  }
}

/** The header and the number of rows, read once before anything is sent; a CSV that cannot be read is refused. */
export async function surveyCsv(file: string): Promise<{ header: string[]; rows: number }> {
  let header: string[] = [];
  let rows = 0;
  try {
    for await (const _ of rowsOf(file, (found) => (header = found))) rows += 1;
  } catch (error) {
    throw new CliUsageError(`${(error as Error).message}. Nothing was sent.`);
  }
  return { header, rows };
}

/** The rows of the CSV, streamed (the file is opened at the first read); a problem found on the way throws, saying what it is. */
export function csvRows(file: string): AsyncGenerator<CsvRow> {
  return rowsOf(file);
}

/** A row's fields by column name (as csv-parse's `columns` makes them: a field past the last column is left out). */
function fieldsOf(header: readonly string[], record: readonly string[]): Record<string, string> {
  return Object.fromEntries(record.slice(0, header.length).map((value, index) => [header[index]!, value]));
}

/**
 * The line each record starts on, as an editor numbers it (CR LF one line break, a lone CR or LF
 * one each). csv-parse's `info.lines` is the line a record ends on, counting each CR and each LF
 * of a quoted field apart (a CR LF there is two) and a record delimiter once: so a record starts
 * `info.lines`, less the surplus of the CR LFs quoted so far, less the line breaks in its fields.
 */
class LineCounter {
  /** The CR LFs in the fields read so far, each of which `info.lines` counted twice. */
  #surplus = 0;

  /** The line `record`, just read, starts on. */
  startOf(record: readonly string[], info: Info): number {
    let breaks = 0;
    for (const value of record) {
      breaks += lineBreaks(value);
      this.#surplus += value.split('\r\n').length - 1;
    }
    return this.lineOf(info.lines) - breaks;
  }

  /** An editor's line for csv-parse's line `lines` of the record being read. */
  lineOf(lines: number): number {
    return lines - this.#surplus;
  }
}

/** What is wrong with the CSV, in a sentence naming the file and, where it is known, the line. */
function csvProblem(file: string, error: unknown, lines: LineCounter): string {
  if (error instanceof CsvEncodingError)
    return `${file}: ${error.message}: save the file as UTF-8 (in Excel: "CSV UTF-8")`;
  const tooLong = (line: number | string) =>
    `${file}: the row at line ${line} is longer than 1 MiB (a phone number and a template's parameters take far less): fix or remove it`;
  if (error instanceof CsvRowTooLongError) return tooLong(error.line);
  if (error instanceof CsvError && error.code === 'CSV_MAX_RECORD_SIZE') {
    const at = (error as CsvError & { lines?: number }).lines;
    return tooLong(at === undefined ? '?' : lines.lineOf(at));
  }
  const message = error instanceof Error ? error.message : String(error);
  const shown = message.length > SHOWN_ERROR_CHARS ? `${message.slice(0, SHOWN_ERROR_CHARS)}…` : message;
  return `cannot read the CSV ${file}: ${shown}`;
}
