// Phone numbers in any spelling, to one canonical form. (Interim copy for bizmsg/bulk: a sibling
// branch adds the same contract, exported from `bizmsg`; at merge this file gives way to that one.)
import { showValue } from './describe.js';
import { InvalidArgumentError } from './errors.js';

/** How `normalizePhone` writes a number: E.164 (`+4915112345678`) or digits only (`4915112345678`). */
export type PhoneFormat = 'e164' | 'digits';

/** Spaces, dashes, dots, slashes and brackets people write between digits. */
const SEPARATORS = /[\s\-./()[\]]/g;

/**
 * The number in E.164 (default) or `format: 'digits'`; throws `InvalidArgumentError` saying why
 * when it is not an international number of 8 to 15 digits.
 */
export function normalizePhone(value: unknown, options: { format?: PhoneFormat } = {}): string {
  if (typeof value !== 'string')
    throw new InvalidArgumentError(`A phone number must be a string, got ${showValue(value)}.`);
  const written = value.replace(SEPARATORS, '');
  const digits = written.startsWith('+') ? written.slice(1) : written.startsWith('00') ? written.slice(2) : written;
  const problem = phoneProblem(digits);
  if (problem !== undefined)
    throw new InvalidArgumentError(`${showValue(value)} is not a valid phone number: ${problem}.`);
  return options.format === 'digits' ? digits : `+${digits}`;
}

function phoneProblem(digits: string): string | undefined {
  if (!/^\d*$/.test(digits)) return 'only digits, spaces, dashes, dots, slashes, brackets and a leading + may appear';
  if (digits.length < 8 || digits.length > 15)
    return `it has ${digits.length} digits, an international number has 8 to 15`;
  if (digits.startsWith('0')) return 'it starts with 0 (a national number): write it with its country code';
  return undefined;
}

/** True when `a` and `b` are the same valid number in any spelling; false (never a throw) otherwise. */
export function samePhone(a: unknown, b: unknown): boolean {
  try {
    return normalizePhone(a) === normalizePhone(b);
  } catch {
    return false;
  }
}
