// The CSV reader itself: the text decoded strictly (`text.ts`) and read with csv-parse as a
// stream, each row by column name with the line it starts on, as an editor numbers it. A row over
// the limit stops the parser before it is held whole (a field by csv-parse's `max_record_size`, a
// row of many fields by `CsvRowLimit`), naming its line. Loaded by readCsv at its first read.
import { pipeline, type Readable } from 'node:stream';
import { CsvError, parse, type Info } from 'csv-parse';
import { CsvEncodingError, CsvRowLimit, CsvRowTooLongError, CsvText, lineBreaks } from './text.js';
import { CsvReadError } from '../errors.js';
import type { CsvRow } from './read-csv.js';

/** How much of csv-parse's own message is shown: it may quote a field of the file. */
const SHOWN_ERROR_CHARS = 300;

/**
 * The rows of `bytes` (see `readCsv`), the header handed to `onHeader` (which may throw); the
 * command lines read their files with it, and say a header's faults in their own words.
 */
export async function* csvRows(
  bytes: Readable,
  limit: number,
  onHeader: (header: string[]) => void,
): AsyncGenerator<CsvRow> {
  const lines = new LineCounter();
  let header: string[] | undefined;
  try {
    for await (const { record, info } of parser(bytes, limit)) {
      const line = lines.startOf(record, info);
      if (header === undefined) {
        header = record;
        onHeader(header);
      } else yield { line, row: cellsOf(header, record) };
    }
  } catch (error) {
    throw readError(error, lines, limit);
  }
}

/** What csv-parse yields with `info: true` and no `columns`: each record's cells, the header's too. */
interface ParsedRecord {
  readonly record: string[];
  readonly info: Info;
}

function parser(bytes: Readable, limit: number): AsyncIterable<ParsedRecord> {
  // A row with too few or too many cells still comes through: it fails alone, it never stops the job.
  const records = parse({
    bom: true,
    trim: true,
    skip_empty_lines: true,
    relax_column_count: true,
    max_record_size: limit,
    // Every line break ends a row, as an editor shows the file (by default csv-parse takes the
    // first kind it meets, and a row ending in another kind runs on into the next).
    record_delimiter: ['\r\n', '\n', '\r'],
    info: true,
  });
  // A read error (a missing file), a byte that is not UTF-8 or the parser stopping (a row too long)
  // ends all of them; the records' reader throws it. The rest of the source is not read.
  pipeline(bytes, new CsvText(), new CsvRowLimit(limit), records, () => undefined);
  return records;
}

/** A row's cells by column name (as csv-parse's `columns` makes them: a cell past the last column is left out). */
function cellsOf(header: readonly string[], record: readonly string[]): Record<string, string> {
  return Object.fromEntries(record.slice(0, header.length).map((value, index) => [header[index]!, value]));
}

/**
 * The line each record starts on, as an editor numbers it (CR LF one line break, a lone CR or LF
 * one each). csv-parse's `info.lines` is the line a record ends on, counting each CR and each LF
 * of a quoted cell apart (a CR LF there is two) and a record delimiter once: so a record starts
 * `info.lines`, less the surplus of the CR LFs quoted so far, less the line breaks in its cells.
 */
class LineCounter {
  /** The CR LFs in the cells read so far, each of which `info.lines` counted twice. */
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

/** What is wrong with the CSV, as a `CsvReadError` naming, where it is known, the line. */
function readError(error: unknown, lines: LineCounter, limit: number): CsvReadError {
  if (error instanceof CsvReadError) return error;
  const options = { cause: error };
  if (error instanceof CsvEncodingError)
    return new CsvReadError(
      'encoding',
      `${error.message}: save the file as UTF-8 (in Excel: "CSV UTF-8")`,
      error.line,
      options,
    );
  const tooLong = (line: number | undefined) =>
    new CsvReadError(
      'row-too-long',
      `the row at line ${line ?? '?'} is longer than ${limitText(limit)}`,
      line,
      options,
    );
  if (error instanceof CsvRowTooLongError) return tooLong(error.line);
  if (error instanceof CsvError && error.code === 'CSV_MAX_RECORD_SIZE') {
    const at = (error as CsvError & { lines?: number }).lines;
    return tooLong(at === undefined ? undefined : lines.lineOf(at));
  }
  const message = error instanceof Error ? error.message : String(error);
  const shown = message.length > SHOWN_ERROR_CHARS ? `${message.slice(0, SHOWN_ERROR_CHARS)}…` : message;
  if (error instanceof CsvError) {
    const at = (error as CsvError & { lines?: number }).lines;
    return new CsvReadError('malformed', shown, at === undefined ? undefined : lines.lineOf(at), options);
  }
  return new CsvReadError('unreadable', shown, undefined, options);
}

/** `1 MiB`, `512 KiB`, or bytes. */
function limitText(limit: number): string {
  if (limit % (1024 * 1024) === 0) return `${limit / (1024 * 1024)} MiB`;
  return limit % 1024 === 0 ? `${limit / 1024} KiB` : `${limit} bytes`;
}
