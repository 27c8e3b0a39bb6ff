// readCsv: the CSV reader of `bizmsg bulk` and `bizmsg contacts import`, for any program. What it
// runs on (node:fs and node:stream, csv-parse bundled) loads at the first read, so that importing
// bizmsg/bulk loads none of it.
import { showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { CsvReadError } from '../errors.js';

/** The longest row by default, in bytes (1 MiB); a phone and a template's parameters take far less. */
export const MAX_ROW_BYTES = 1024 * 1024;

/**
 * Where a CSV comes from: a path (a string without a line break, or a `file:` URL), the CSV's text
 * (a string with a line break), its bytes in hand (a `Buffer`, a `Uint8Array`), or a stream of its
 * bytes (a Node `Readable`, a web
 * `ReadableStream`, any async iterable of `Uint8Array` or strings).
 */
export type CsvSource = string | URL | Uint8Array | AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>;

/** Options of `readCsv`. */
export interface ReadCsvOptions {
  /** The longest row in bytes of UTF-8 text, separators and line break included (default 1 MiB): a longer one is refused, never held whole. */
  limit?: number | undefined;
}

/** A row of a CSV: its cells by column name, and the line it starts on as an editor numbers it (the header is line 1). */
export interface CsvRow {
  /** The line the row starts on (a quoted cell may span lines; CR LF is one line break). */
  readonly line: number;
  /** The row's cells by the header's column names; a cell past the last column is left out, a missing one is absent. */
  readonly row: Readonly<Record<string, string>>;
}

/**
 * The rows of a CSV, streamed, each keyed by the header's column names with the line it starts on:
 * UTF-8 (a BOM dropped) or UTF-16 with its BOM, every line break ending a row (CR LF, LF or CR),
 * cells trimmed, empty lines skipped, a row with too few or too many cells still a row. A byte that
 * is not valid in its encoding, a row over `limit` bytes (refused without being held), a header
 * that names a column twice and a malformed CSV throw a `CsvReadError` naming the line.
 *
 * @example
 * ```ts
 * for await (const { line, row } of readCsv('patients.csv')) console.log(line, row.phone);
 * ```
 */
export function readCsv(source: CsvSource, options: ReadCsvOptions = {}): AsyncGenerator<CsvRow> {
  // Checked now: a bad limit throws where it was given, not at the first read.
  return rows(source, checkLimit(options ?? {}));
}

async function* rows(source: CsvSource, limit: number): AsyncGenerator<CsvRow> {
  const [{ csvRows }, { streamOf }] = await Promise.all([import('./reader.js'), import('./source.js')]);
  yield* csvRows(streamOf(source), limit, checkHeader);
}

function checkLimit({ limit = MAX_ROW_BYTES }: ReadCsvOptions): number {
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new InvalidArgumentError(
      `readCsv: \`limit\` must be a positive whole number of bytes, got ${showValue(limit)}.`,
    );
  return limit;
}

/** A header that names a column twice would lose one of its cells: refused. */
function checkHeader(header: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name))
      throw new CsvReadError('malformed', `the header names the column ${JSON.stringify(name)} twice`, 1);
    seen.add(name);
  }
}
