import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, normalizePhone, samePhone } from '../../src/index.js';

/** The digits of an international number: 8 to 15, the first not 0. */
const digitsArb = fc
  .tuple(
    fc.constantFrom(...'123456789'),
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 7, maxLength: 14 }),
  )
  .map(([first, rest]) => first + rest);

/** What a spelling may put between digits. */
const separatorArb = fc.constantFrom('', '', ' ', '  ', '-', '.', '/', '\u00a0', '\u202f', '\u2013', '\t');

/**
 * One spelling of `digits`: an international prefix (`+`, `00` or none), then groups with
 * separators, some in brackets, sometimes a "(0)" trunk prefix after the country code. A group
 * that is a lone "0" is never bracketed: `(0)` after digits is the trunk prefix, not a digit.
 */
function spellingArb(digits: string) {
  return fc
    .record({
      prefix: fc.constantFrom('+', '00', '', '+ ', '00 '),
      cuts: fc.uniqueArray(fc.integer({ min: 1, max: digits.length - 1 }), { maxLength: 5 }),
      separators: fc.array(separatorArb, { minLength: 6, maxLength: 6 }),
      brackets: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
      trunk: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      padding: fc.tuple(fc.constantFrom('', ' ', '\n'), fc.constantFrom('', ' ', '\n')),
    })
    .map(({ prefix, cuts, separators, brackets, trunk, padding }) => {
      const edges = [0, ...[...cuts].sort((a, b) => a - b), digits.length];
      const groups = edges.slice(1).map((end, i) => digits.slice(edges[i], end));
      const body = groups
        .map((group, i) => (brackets[i] && group !== '0' ? `(${group})` : group))
        .map((group, i) => (i === 0 ? group : `${separators[i]}${group}`))
        .join('');
      const withTrunk = trunk === undefined ? body : `${digits.slice(0, trunk)} (0) ${digits.slice(trunk)}`;
      return `${padding[0]}${prefix}${withTrunk}${padding[1]}`;
    });
}

/** A number and one of its spellings. */
const spelledArb = digitsArb.chain((digits) => spellingArb(digits).map((spelling) => ({ digits, spelling })));

function thrown(run: () => unknown): InvalidArgumentError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return error as InvalidArgumentError;
  }
  throw new Error('did not throw');
}

describe('normalizePhone', () => {
  it.each([
    ['+49 151 1234 5678', '+4915112345678'],
    ['0049 151 1234 5678', '+4915112345678'],
    ['4915112345678', '+4915112345678'],
    ['+49 (0)151 1234-5678', '+4915112345678'],
    ['+49(0)15112345678', '+4915112345678'],
    ['+1 (415) 555-0100', '+14155550100'],
    ['+1.415.555.0100', '+14155550100'],
    ['+49/151/12345678', '+4915112345678'],
    [' \u00a0+44 7700 900123\n', '+447700900123'],
    ['12345678', '+12345678'],
    ['123456789012345', '+123456789012345'],
    ['tel:+447700900124', '+447700900124'], // an RFC 3966 link, as a CRM exports it
    ['TEL:+44-7700-900124', '+447700900124'],
  ])('writes %j as %j (E.164 by default), and as digits with format: digits', (spelling, e164) => {
    expect(normalizePhone(spelling)).toBe(e164);
    expect(normalizePhone(spelling, { format: 'e164' })).toBe(e164);
    expect(normalizePhone(spelling, { format: 'digits' })).toBe(e164.slice(1));
  });

  it.each([
    ['0151 1234 5678', 'it starts with 0; write a national number with its country code (+49 151…).'],
    ['(0151) 1234 5678', 'it starts with 0; write a national number with its country code (+49 151…).'],
    ['+0151 1234 5678', 'it starts with 0; write'],
    ['000 49 151 1234', 'it starts with 0; write'],
    ['+49 151 CALL-NOW', '"C" is not a digit, space, dash, dot, slash or bracket'],
    ['49+15112345678', 'a "+" may only open the number'],
    ['++4915112345678', 'a "+" may only open the number'],
    ['+49 151 1234 5678 ext. 9', '"e" is not a digit, space, dash, dot, slash or bracket'],
    ['', 'it has 0 digits, not 8 to 15.'],
    [' - ', 'it has 0 digits, not 8 to 15.'],
    ['+', 'it has 0 digits, not 8 to 15.'],
    ['1234567', 'it has 7 digits, not 8 to 15.'],
    ['+1234567890123456', 'it has 16 digits, not 8 to 15.'],
    ['١٢٣٤٥٦٧٨٩', '"١" is not a digit, space, dash, dot, slash or bracket'],
    ['tel:', 'it has 0 digits, not 8 to 15.'],
    ['tel:tel:+447700900124', '"t" is not a digit, space, dash, dot, slash or bracket'],
    ['mailto:+447700900124', '"m" is not a digit, space, dash, dot, slash or bracket'],
  ])('refuses %j, saying why', (spelling, why) => {
    const error = thrown(() => normalizePhone(spelling));
    expect(error.message).toContain(`normalizePhone: ${JSON.stringify(spelling)} is not a valid phone number: ${why}`);
  });

  it('quotes what it refuses inert: bidi controls and invisible characters as \\u escapes, an emoji whole', () => {
    expect(thrown(() => normalizePhone('+49\u202e15112345678')).message).toBe(
      'normalizePhone: "+49\\u202e15112345678" is not a valid phone number: "\\u202e" is not a digit, space, dash, dot, slash or bracket.',
    );
    expect(thrown(() => normalizePhone('+49\u200b151\ufeff')).message).toBe(
      'normalizePhone: "+49\\u200b151\\ufeff" is not a valid phone number: "\\u200b" is not a digit, space, dash, dot, slash or bracket.',
    );
    expect(thrown(() => normalizePhone('+49 151 😀')).message).toBe(
      'normalizePhone: "+49 151 😀" is not a valid phone number: "😀" is not a digit, space, dash, dot, slash or bracket.',
    );
  });

  it('refuses what is not a string, and options that cannot work', () => {
    expect(thrown(() => normalizePhone(4915112345678 as never)).message).toBe(
      'normalizePhone: a phone number must be a string, got 4915112345678.',
    );
    expect(thrown(() => normalizePhone(null as never)).message).toBe(
      'normalizePhone: a phone number must be a string, got null.',
    );
    expect(thrown(() => normalizePhone('+4915112345678', { format: 'E164' as never })).message).toBe(
      `normalizePhone: the \`format\` option must be 'e164' or 'digits', got "E164".`,
    );
    expect(thrown(() => normalizePhone('+4915112345678', 'digits' as never)).message).toBe(
      `normalizePhone: options must be an object such as { format: 'digits' }, got "digits".`,
    );
  });

  it('cuts a long value short in its message', () => {
    const error = thrown(() => normalizePhone(`x${'1'.repeat(100)}`));
    expect(error.message).toBe(
      `normalizePhone: "x${'1'.repeat(39)}…" is not a valid phone number: "x" is not a digit, space, dash, dot, slash or bracket.`,
    );
  });

  it('reads every spelling of a number as that number (property)', () => {
    fc.assert(
      fc.property(spelledArb, ({ digits, spelling }) => {
        expect(normalizePhone(spelling)).toBe(`+${digits}`);
        expect(normalizePhone(spelling, { format: 'digits' })).toBe(digits);
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent, and either gives a valid E.164 number or throws InvalidArgumentError, for any string (property)', () => {
    const anyString = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: fc.constantFrom(...'0123456789+-. ()/', '00', '(0)') }),
      spelledArb.map(({ spelling }) => spelling),
    );
    fc.assert(
      fc.property(anyString, (value) => {
        let e164: string;
        try {
          e164 = normalizePhone(value);
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidArgumentError);
          expect(samePhone(value, value)).toBe(false);
          return;
        }
        expect(e164).toMatch(/^\+[1-9]\d{7,14}$/);
        expect(normalizePhone(e164)).toBe(e164);
        const digits = normalizePhone(value, { format: 'digits' });
        expect(digits).toBe(e164.slice(1));
        expect(normalizePhone(digits)).toBe(e164);
        expect(normalizePhone(digits, { format: 'digits' })).toBe(digits);
        expect(samePhone(value, e164)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('samePhone', () => {
  it('is true for two spellings of one number (property)', () => {
    fc.assert(
      fc.property(
        digitsArb.chain((digits) => fc.tuple(spellingArb(digits), spellingArb(digits))),
        ([a, b]) => {
          expect(samePhone(a, b)).toBe(true);
          expect(samePhone(b, a)).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('is never true for two different numbers, however spelt (property)', () => {
    const twoNumbers = fc
      .tuple(digitsArb, digitsArb)
      .filter(([a, b]) => a !== b)
      .chain(([a, b]) => fc.tuple(spellingArb(a), spellingArb(b)));
    // Numbers that differ by little: a digit more or less at either end (another country code, a
    // national part alone), one digit changed.
    const nearNumbers = digitsArb.chain((digits) =>
      fc
        .constantFrom(
          `${digits}0`,
          `1${digits}`,
          digits.slice(0, -1),
          digits.slice(1),
          `${digits.slice(0, -1)}${(Number(digits.at(-1)) + 1) % 10}`,
        )
        .filter((other) => /^[1-9]\d{7,14}$/.test(other))
        .chain((other) => fc.tuple(spellingArb(digits), spellingArb(other))),
    );
    fc.assert(
      fc.property(fc.oneof(twoNumbers, nearNumbers), ([a, b]) => {
        expect(samePhone(a, b)).toBe(false);
        expect(samePhone(b, a)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('says "same" only when both normalise to one number, and never throws, for any values (property)', () => {
    const value = fc.oneof(
      fc.anything(),
      fc.string(),
      fc.string({ unit: fc.constantFrom(...'0123456789+ -') }),
      spelledArb.map(({ spelling }) => spelling),
    );
    fc.assert(
      fc.property(value, value, (a, b) => {
        const same = samePhone(a as string, b as string);
        if (!same) return;
        expect(normalizePhone(a as string)).toBe(normalizePhone(b as string));
      }),
      { numRuns: 3000 },
    );
  });

  it('is false on junk, national numbers and non-strings', () => {
    expect(samePhone('0151 1234 5678', '0151 1234 5678')).toBe(false);
    expect(samePhone('', '')).toBe(false);
    expect(samePhone('abc', 'abc')).toBe(false);
    expect(samePhone(undefined as never, undefined as never)).toBe(false);
    expect(samePhone(4915112345678 as never, '+4915112345678')).toBe(false);
    expect(samePhone('+49 151 1234 5678', '004915112345678')).toBe(true);
  });
});
