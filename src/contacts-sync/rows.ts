// The rows of a sync read into one entry per number: each row checked (a valid number, fields that
// can be sent as JSON), the rows of one number in any spelling merged (a later row's fields win,
// custom fields key by key), a row that cannot be synced failed with its reason.
import { serializeBody } from '../core/call/request-body.js';
import { describeValue } from '../shared/describe.js';
import { isRecord } from '../shared/guards.js';
import { phoneDigits, writePhone } from '../shared/phone.js';
import type { ContactSyncFailure, ContactSyncRow } from './types.js';

/** The fields a row writes (null read as left out). */
export type ContactFields = { [K in Exclude<keyof ContactSyncRow, 'phone'>]?: Exclude<ContactSyncRow[K], null> };

/**
 * The fields of a row: those a row is read for (a copy: the caller may change its rows while the
 * sync runs), and those a sync compares with its contact (fields.ts).
 */
export const ROW_FIELDS = ['name', 'email', 'tags', 'custom_fields'] as const;

/** A row read: its number (digits, and E.164) and its fields; or why it cannot be synced. */
export type ReadRow =
  | { readonly digits: string; readonly phone: string; readonly fields: ContactFields; readonly error?: undefined }
  | { readonly phone: string; readonly error: ContactSyncFailure };

/** The rows of one number: the fields to write, the last row (it carries the outcome), the earlier rows (merged). */
export interface Entry {
  readonly digits: string;
  readonly phone: string;
  fields: ContactFields;
  row: number;
  readonly merged: number[];
  /** Set when a write must wait for the account to be read again: its error, and what it may have been processed as. */
  pending?: { readonly error: unknown; readonly mayHaveBeenProcessedAs: 'created' | 'updated' | undefined };
}

/** Reads row number `row` (from 1). */
export function readRow(value: unknown, row: number): ReadRow {
  const what = `row ${row}`;
  let phone = '';
  try {
    if (!isRecord(value))
      return invalid(phone, `${what} must be an object with a \`phone\`, got ${describeValue(value)}.`);
    const given = value.phone;
    phone = typeof given === 'string' ? given : '';
    let digits: string;
    try {
      digits = phoneDigits(given, `${what}, field \`phone\``);
    } catch (error) {
      return { phone, error: { code: 'INVALID_PHONE', message: (error as Error).message } };
    }
    phone = writePhone(digits, 'e164');
    // A field undefined or null (a `Contact` read back has null for a name or e-mail it lacks) is left out.
    const picked = Object.fromEntries(
      ROW_FIELDS.filter((name) => value[name] !== undefined && value[name] !== null).map((name) => [name, value[name]]),
    );
    return { digits, phone, fields: JSON.parse(serializeBody(picked, `The fields of ${what}`)) as ContactFields };
  } catch (error) {
    // A getter that throws, a field that cannot be sent as JSON.
    return invalid(phone, error instanceof Error ? error.message : String(error));
  }
}

function invalid(phone: string, message: string): ReadRow {
  return { phone, error: { code: 'INVALID_ROW', message } };
}

/** Adds a row read to the entries: a new number's entry, or merged into its number's (true). */
export function mergeRow(
  entries: Map<string, Entry>,
  read: Extract<ReadRow, { digits: string }>,
  row: number,
): boolean {
  const entry = entries.get(read.digits);
  if (entry === undefined) {
    entries.set(read.digits, { digits: read.digits, phone: read.phone, fields: read.fields, row, merged: [] });
    return false;
  }
  entry.merged.push(entry.row);
  entry.row = row;
  const earlier = entry.fields.custom_fields;
  const later = read.fields.custom_fields;
  entry.fields = { ...entry.fields, ...read.fields };
  if (isRecord(earlier) && isRecord(later)) entry.fields.custom_fields = { ...earlier, ...later };
  return true;
}
