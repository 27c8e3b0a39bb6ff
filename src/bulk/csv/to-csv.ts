// toCsv: rows (a job's outcomes, its results, any plain objects) as CSV a spreadsheet opens safely.
import { showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { isRecord } from '../../shared/guards.js';

/** Options of `toCsv`. */
export interface ToCsvOptions {
  /** The columns, in order, by name (a nested field as `error.code`); default: every field the rows have. */
  columns?: readonly string[] | undefined;
}

/** The columns of a job's outcomes (`bulkOutcomes`) in order: `bizmsg bulk report` writes them all, always. */
export const OUTCOME_COLUMNS = [
  'key',
  'to',
  'outcome',
  'messageId',
  'error.code',
  'error.message',
  'sentAt',
  'deliveredAt',
  'readAt',
  'failedAt',
] as const;

/**
 * The columns bizmsg's own rows come in (outcomes, and results with their `status`), whichever
 * fields the first row has; fields of no such name follow in the order first seen.
 */
const KNOWN_COLUMNS: readonly string[] = [...OUTCOME_COLUMNS.slice(0, 3), 'status', ...OUTCOME_COLUMNS.slice(3)];

/** A cell a spreadsheet would run as a formula (or that starts with a control character): shown as text instead. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell that must be quoted (RFC 4180): a separator, a quote or a line break in it, or spaces at its ends. */
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/**
 * `rows` as CSV (RFC 4180, CR LF line breaks): a header line, then one line per row, a nested
 * object's fields as columns of their own (`error.code`, `error.message`), an array as its JSON,
 * an absent field empty. A cell that starts with `=`, `+`, `-`, `@`, a tab or a CR is prefixed
 * with `'`, so that no spreadsheet runs it as a formula (`+4915112345678` shows as the number's
 * text). An async iterable (`bulkOutcomes(...)`) gives a promise of the text.
 *
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 *
 * const rows = bulkOutcomes(fileJournal('./reminders.journal'), { id: 'reminders', tracker: fileStatusStore('./statuses') });
 * await writeFile('outcomes.csv', await toCsv(rows)); // an async iterable: a promise of the text
 * console.log(toCsv([{ key: '=1+1', to: '+4915112345678' }])); // key,to / '=1+1,'+4915112345678
 * ```
 */
export function toCsv(rows: Iterable<object>, options?: ToCsvOptions): string;
export function toCsv(rows: AsyncIterable<object>, options?: ToCsvOptions): Promise<string>;
export function toCsv(rows: Iterable<object> | AsyncIterable<object>, options?: ToCsvOptions): string | Promise<string>;
export function toCsv(
  rows: Iterable<object> | AsyncIterable<object>,
  options: ToCsvOptions = {},
): string | Promise<string> {
  const columns = checkColumns(options);
  if (typeof (rows as Partial<AsyncIterable<object>> | null)?.[Symbol.asyncIterator] === 'function')
    return gather(rows as AsyncIterable<object>).then((all) => csvOf(all, columns));
  if (typeof (rows as Partial<Iterable<object>> | null)?.[Symbol.iterator] !== 'function' || typeof rows === 'string')
    throw new InvalidArgumentError(`toCsv(rows): \`rows\` must be an iterable of objects, got ${showValue(rows)}.`);
  return csvOf([...(rows as Iterable<object>)], columns);
}

async function gather(rows: AsyncIterable<object>): Promise<object[]> {
  const all: object[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

function csvOf(rows: readonly object[], given: readonly string[] | undefined): string {
  const flat = rows.map((row, index) => {
    if (!isRecord(row)) throw new InvalidArgumentError(`toCsv: row ${index + 1} is not an object: ${showValue(row)}.`);
    return flatten(row);
  });
  const columns = given ?? columnsOf(flat);
  const lines = [columns, ...flat.map((row) => columns.map((column) => row.get(column) ?? ''))];
  return lines.map((cells) => cells.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** A row's fields as text by column name, a nested object's under `name.field`. */
function flatten(row: Record<string, unknown>, prefix = '', into = new Map<string, string>()): Map<string, string> {
  for (const [name, value] of Object.entries(row)) {
    const column = `${prefix}${name}`;
    if (isRecord(value)) flatten(value, `${column}.`, into);
    else if (value !== undefined && value !== null) into.set(column, textOf(value));
  }
  return into;
}

/** A field's value as a cell's text: a list as JSON, a date in ISO 8601. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  return JSON.stringify(value) ?? '';
}

/** Every column the rows have: bizmsg's own in their order, then the others as first seen. */
function columnsOf(rows: readonly Map<string, string>[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const column of row.keys()) seen.add(column);
  const known = KNOWN_COLUMNS.filter((column) => seen.has(column));
  return [...known, ...[...seen].filter((column) => !KNOWN_COLUMNS.includes(column))];
}

/** One cell: made inert for a spreadsheet, then quoted where RFC 4180 needs it. */
function cell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function checkColumns({ columns }: ToCsvOptions): readonly string[] | undefined {
  if (columns === undefined) return undefined;
  if (!Array.isArray(columns) || columns.length === 0 || !columns.every((c) => typeof c === 'string' && c !== ''))
    throw new InvalidArgumentError(`toCsv: \`columns\` must be a list of column names, got ${showValue(columns)}.`);
  return columns as readonly string[];
}
