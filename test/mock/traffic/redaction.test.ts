import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../../src/mock/traffic/recording/redaction.js';

/** A number's digits: a country code that is not 999 (the placeholders'), then the rest, 8 to 15 digits in all. */
const digits = fc
  .tuple(fc.integer({ min: 1, max: 998 }), fc.stringMatching(/^\d{7,12}$/))
  .map(([code, rest]) => `${code}${rest}`);

/** The spellings an app may send one number in. */
function spellings(number: string): string[] {
  const spaced = `${number.slice(0, 2)} ${number.slice(2, 5)} ${number.slice(5)}`;
  return [
    `+${number}`,
    `00${number}`,
    number,
    `+${spaced}`,
    `+${number.slice(0, 2)} (0)${number.slice(2)}`,
    `+${number.slice(0, 3)}-${number.slice(3)}`,
  ];
}

describe('redaction of phone numbers', () => {
  it('gives one number one placeholder in every spelling, in country code 999, and keeps none of its digits', () => {
    fc.assert(
      fc.property(digits, fc.string({ minLength: 16 }), (number, key) => {
        const redactor = new Redactor(key);
        const placeholders = spellings(number).map((spelled) => String(redactor.phone(spelled)).replace(/^\+/, ''));
        expect(new Set(placeholders).size).toBe(1);
        expect(placeholders[0]).toMatch(/^999\d{10}$/);
        const body = JSON.stringify(
          redactor.body({ to: spellings(number)[3], data: [{ phone: number, echo: `+${number}` }] }, []),
        );
        expect(body).not.toContain(number);
        // A placeholder is kept as it is: a replay without the key matches placeholders themselves.
        expect(new Redactor(undefined).phone(`+${placeholders[0]}`)).toBe(`+${placeholders[0]}`);
      }),
    );
  });

  it('keeps message text and values that spell no number, and maps placeholders back to the numbers sent', () => {
    const redactor = new Redactor('a-redaction-key-for-the-test');
    const body = redactor.body(
      { to: '+49 151 1234 5678', content: { body: 'Call +49 151 1234 5678' }, search: 'Ada' },
      [],
    ) as {
      to: string;
      content: { body: string };
    };
    expect(body.content.body).toBe('Call +49 151 1234 5678');
    expect(redactor.phone('Ada Lovelace')).toBe('Ada Lovelace');
    expect(redactor.mapBack(JSON.stringify({ phone: body.to }))).toBe('{"phone":"+4915112345678"}');
    expect(() => new Redactor('short')).toThrow('at least 16 characters');
  });
});
