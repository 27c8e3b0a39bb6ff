// The numbers of `bizmsg bulk --suppress FILE`: opted-out numbers, one a line in any spelling, or a
// CSV with a column `phone`. A line that is no number is refused (exit 2, nothing sent): a typo
// in an opt-out list would let a message reach someone who said stop.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { phoneDigits } from '../../shared/phone.js';
import { printable } from '../../shared/printable.js';
import { csvRows } from '../csv/reader.js';
import { MAX_ROW_BYTES } from '../csv/read-csv.js';
import { CliUsageError } from './args.js';

/** The reason a suppressed row is recorded with. */
export const OPTED_OUT = 'opted out';

/** The digits of every number in `files`. */
export async function readSuppressed(files: readonly string[]): Promise<Set<string>> {
  const numbers = new Set<string>();
  for (const file of files) {
    try {
      for await (const [line, number] of isCsv(await firstLine(file)) ? csvNumbers(file) : lineNumbers(file))
        numbers.add(digitsOf(number, file, line));
    } catch (error) {
      if (error instanceof CliUsageError) throw error;
      throw new CliUsageError(`--suppress ${file}: ${(error as Error).message}. Nothing was sent.`, { cause: error });
    }
  }
  return numbers;
}

/**
 * A CSV's header: a line of names, one of them `phone` (as the CSV reader reads a header: each name
 * trimmed, quotes or not), a column of its own (`phone` alone on the line: a CSV of one column).
 */
function isCsv(header: string): boolean {
  return header.split(',').some(
    (name) =>
      name
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .trim() === 'phone',
  );
}

async function firstLine(file: string): Promise<string> {
  const lines = createInterface({ input: createReadStream(file, { end: MAX_ROW_BYTES }), crlfDelay: Infinity });
  try {
    for await (const line of lines) return line.replace(/^\uFEFF/, '');
    return '';
  } finally {
    lines.close();
  }
}

/** Each non-empty line (a `#` starts a comment line) with its number. */
async function* lineNumbers(file: string): AsyncGenerator<[number, string]> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let at = 0;
  for await (const line of lines) {
    at += 1;
    const text = line.replace(/^\uFEFF/, '').trim();
    if (text !== '' && !text.startsWith('#')) yield [at, text];
  }
}

/** The `phone` cell of each row of a CSV. */
async function* csvNumbers(file: string): AsyncGenerator<[number, string]> {
  for await (const { line, row } of csvRows(createReadStream(file), MAX_ROW_BYTES, () => undefined))
    if ((row.phone ?? '') !== '') yield [line, row.phone!];
}

function digitsOf(number: string, file: string, line: number): string {
  try {
    return phoneDigits(number, 'phone');
  } catch {
    throw new CliUsageError(
      `--suppress ${file}: line ${line} is no phone number (${printable(number.slice(0, 40))}): fix or remove it. Nothing was sent.`,
    );
  }
}
