// Phone numbers in any spelling: reading one into its digits, writing it in E.164 or as bare
// digits, and telling whether two spellings are one number. The clients (the `phoneFormat`
// option, `contacts.findByPhone`), the mock (its search) and users (`normalizePhone`, `samePhone`) share it.
import { quote, showValue } from './describe.js';
import { InvalidArgumentError } from './errors.js';

/** How many digits an international number has, country code included (E.164 allows at most 15). */
export const PHONE_DIGITS = { min: 8, max: 15 } as const;

/** How `normalizePhone` writes a number: E.164 (`'+4915112345678'`) or its digits (`'4915112345678'`, as webhooks carry it). */
export type PhoneFormat = 'e164' | 'digits';

/** Options of `normalizePhone`. */
export interface NormalizePhoneOptions {
  /**
   * `'e164'`: `+` and the digits; `'digits'`: the digits alone.
   * @default 'e164'
   */
  format?: PhoneFormat | undefined;
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
  { readonly digits: string; readonly problem?: undefined } | { readonly digits?: undefined; readonly problem: string };

/**
 * The digits a spelling writes (separators, a "(0)" after the country code and the international
 * prefix `+` or `00` removed), or why it is no spelling of a number. It does not check the count
 * of digits: a search for part of a number is read by it too.
 */
export function spelledDigits(value: string): SpelledNumber {
  const compact = value.replace(TRUNK_ZERO, '$1').replace(SEPARATORS, '');
  const stray = /[^\d+]|(?!^)\+/u.exec(compact)?.[0];
  if (stray === undefined) return { digits: compact.replace(/^(\+|00)/, '') };
  return {
    problem:
      stray === '+'
        ? 'a "+" may only open the number'
        : `${quote(stray)} is not a digit, space, dash, dot, slash or bracket`,
  };
}

/** An RFC 3966 `tel:` URI's scheme: a number copied from a link (`tel:+447700900124`) reads as the number. */
const TEL_SCHEME = /^\s*tel:/i;

/** The digits of an international number in any spelling, or why `value` is none. */
function readPhone(value: unknown): SpelledNumber {
  if (typeof value !== 'string') return { problem: `a phone number must be a string, got ${showValue(value)}` };
  const spelled = spelledDigits(value.replace(TEL_SCHEME, ''));
  if (spelled.digits === undefined) return spelled;
  const count = spelled.digits.length;
  // Bare digits are read as international, so a leading 0 is a national number's trunk prefix (or junk after a +).
  if (spelled.digits.startsWith('0'))
    return { problem: 'it starts with 0; write a national number with its country code (+49 151…)' };
  if (count < PHONE_DIGITS.min || count > PHONE_DIGITS.max)
    return { problem: `it has ${count} digits, not ${PHONE_DIGITS.min} to ${PHONE_DIGITS.max}` };
  return spelled;
}

/**
 * The digits of the international number `value` spells; an `InvalidArgumentError` saying why
 * when it spells none. `what` opens the message (e.g. "The body of POST /messages/send, field `to`").
 */
export function phoneDigits(value: unknown, what: string): string {
  const phone = readPhone(value);
  if (phone.problem === undefined) return phone.digits;
  const shown = typeof value === 'string' ? `${showValue(value)} is not a valid phone number: ` : '';
  throw new InvalidArgumentError(`${what}: ${shown}${phone.problem}.`);
}

/** The number `digits` stand for, written in `format`. */
export function writePhone(digits: string, format: PhoneFormat): string {
  return format === 'e164' ? `+${digits}` : digits;
}

/**
 * A phone number in any spelling (`'+49 151 1234-5678'`, `'0049 (0)151 12345678'`,
 * `'4915112345678'`, `'tel:+4915112345678'`) written in one form: E.164 by default, or its digits
 * with `format: 'digits'`. Spaces, dashes, dots, slashes and brackets are dropped; a leading `+` or
 * `00` is the international prefix, a `tel:` scheme is dropped, and bare digits are read as already
 * international. Anything else (letters, a national
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
