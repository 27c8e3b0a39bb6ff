// Phone numbers in any spelling: reading one into its digits, writing it in E.164 or as bare
// digits, and telling whether two spellings are one number. The clients (the `phoneFormat`
// option), the mock (one contact per number) and users (`normalizePhone`, `samePhone`) share it.
import { showValue } from './describe.js';
import { InvalidArgumentError } from './errors.js';

/** How many digits an international number has, country code included (E.164 allows at most 15). */
export const PHONE_DIGITS = { min: 8, max: 15 } as const;

/**
 * A number as the service takes it on the wire: the digits of an international number, with an
 * optional leading `+` (the spec: "the forms with and without a leading `+` both occur").
 */
export const PHONE_PATTERN = /* @__PURE__ */ new RegExp(
  `^\\+?[1-9]\\d{${PHONE_DIGITS.min - 1},${PHONE_DIGITS.max - 1}}$`,
);

/** `PHONE_PATTERN` in words, after "an international number:", for the messages and documents that state it. */
export const PHONE_PATTERN_TEXT = `${PHONE_DIGITS.min} to ${PHONE_DIGITS.max} digits, not starting with 0, with or without a leading +`;

/** How `normalizePhone` writes a number: E.164 (`'+4915112345678'`) or its digits (`'4915112345678'`, as webhooks carry it). */
export type PhoneFormat = 'e164' | 'digits';

/** Options of `normalizePhone`. */
export interface NormalizePhoneOptions {
  /**
   * `'e164'`: `+` and the digits; `'digits'`: the digits alone.
   * @default 'e164'
   */
  format?: PhoneFormat;
}

/** What a spelling may put between digits: whitespace, dashes, dots, slashes and round brackets. */
const SEPARATORS = /[\s\-\u2010-\u2015\u2212./()]/g;

/**
 * A "(0)" after the country code (`+49 (0)151 …`): the trunk prefix written for callers inside the
 * country, not part of the international number, so it is dropped rather than read as a digit.
 */
const TRUNK_ZERO = /^([^\d(]*\d[^(]*)\(\s*0\s*\)/;

/** The digits of a spelling, or why it spells no number. */
export type SpelledNumber =
  | { readonly digits: string; readonly international: boolean; readonly problem?: undefined }
  | { readonly problem: string };

/**
 * The digits a spelling writes (separators and a "(0)" after the country code removed, and the
 * international prefix `+` or `00`, whether it had one), or why it is no spelling of a number.
 * It does not check the count of digits: a search for part of a number is read by it too.
 */
export function spelledDigits(value: string): SpelledNumber {
  const compact = value.replace(TRUNK_ZERO, '$1').replace(SEPARATORS, '');
  const stray = /[^\d+]/.exec(compact) ?? /(?<=.)\+/.exec(compact);
  if (stray !== null) {
    return {
      problem:
        stray[0] === '+'
          ? 'a "+" may only open the number'
          : `${JSON.stringify(stray[0])} is not a digit, space, dash, dot, slash or bracket`,
    };
  }
  if (compact.startsWith('+')) return { digits: compact.slice(1), international: true };
  if (compact.startsWith('00')) return { digits: compact.slice(2), international: true };
  return { digits: compact, international: false };
}

/** The digits of an international number in any spelling, or why `value` is none. */
function readPhone(value: unknown): SpelledNumber {
  if (typeof value !== 'string') return { problem: `a phone number must be a string, got ${showValue(value)}` };
  const spelled = spelledDigits(value);
  if (spelled.problem !== undefined) return spelled;
  const { digits, international } = spelled;
  if (digits === '') return { problem: 'it has no digits' };
  if (digits.startsWith('0')) {
    return {
      problem: international
        ? 'a country code does not start with 0'
        : 'it starts with 0, so it is a national number; write it with its country code (e.g. +49 151… or 0049 151…), since bare digits are read as international',
    };
  }
  if (digits.length < PHONE_DIGITS.min || digits.length > PHONE_DIGITS.max) {
    return {
      problem: `it has ${digits.length} digits; an international number has ${PHONE_DIGITS.min} to ${PHONE_DIGITS.max}, country code included`,
    };
  }
  return spelled;
}

/**
 * The digits of the international number `value` spells; an `InvalidArgumentError` saying why
 * when it spells none. `what` opens the message (e.g. "The body of POST /messages/send: to").
 */
export function phoneDigits(value: unknown, what?: string): string {
  const phone = readPhone(value);
  if (phone.problem === undefined) return phone.digits;
  const shown = typeof value === 'string' ? `${showValue(value)} is not a valid phone number: ` : '';
  throw new InvalidArgumentError(`${what === undefined ? '' : `${what}: `}${shown}${phone.problem}.`);
}

/** The number `digits` stand for, written in `format`. */
export function writePhone(digits: string, format: PhoneFormat): string {
  return format === 'e164' ? `+${digits}` : digits;
}

/**
 * A phone number in any spelling (`'+49 151 1234-5678'`, `'0049 (0)151 12345678'`,
 * `'4915112345678'`) written in one form: E.164 by default, or its digits with `format: 'digits'`.
 * Spaces, dashes, dots, slashes and brackets are dropped; a leading `+` or `00` is the international
 * prefix, and bare digits are read as already international. Anything else (letters, a national
 * number such as `'0151…'`, fewer than 8 or more than 15 digits) throws an `InvalidArgumentError`
 * saying why. It checks the form, not that the number is assigned: for a national number, parse it
 * with a phone-number library first (docs/decisions.md).
 *
 * @example
 * ```ts
 * normalizePhone('+49 151 1234 5678'); // '+4915112345678'
 * normalizePhone('0049 151 1234 5678', { format: 'digits' }); // '4915112345678'
 * ```
 */
export function normalizePhone(value: string, options?: NormalizePhoneOptions): string {
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new InvalidArgumentError(
      `normalizePhone: options must be an object such as { format: 'digits' }, got ${showValue(options)}.`,
    );
  }
  const format = options?.format ?? 'e164';
  if (format !== 'e164' && format !== 'digits') {
    throw new InvalidArgumentError(
      `normalizePhone: the \`format\` option must be 'e164' or 'digits', got ${showValue(format)}.`,
    );
  }
  return writePhone(phoneDigits(value, 'normalizePhone'), format);
}

/**
 * True when `a` and `b` spell the same international number (`'+49 151 1234 5678'` and
 * `'004915112345678'`); false when they differ or either is no valid number. It never throws.
 */
export function samePhone(a: string, b: string): boolean {
  const first = readPhone(a);
  const second = readPhone(b);
  return first.problem === undefined && second.problem === undefined && first.digits === second.digits;
}
