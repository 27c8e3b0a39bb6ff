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
  it('gives one number one placeholder in every spelling, in country code 999, and keeps none of its digits', async () => {
    await fc.assert(
      fc.asyncProperty(digits, fc.string({ minLength: 16 }), async (number, key) => {
        const redactor = new Redactor(key);
        const placeholders = spellings(number).map((spelled) => String(redactor.phone(spelled)).replace(/^\+/, ''));
        expect(new Set(placeholders).size).toBe(1);
        expect(placeholders[0]).toMatch(/^999\d{10}$/);
        const body = JSON.stringify(
          await redactor.body({ to: spellings(number)[3], data: [{ phone: number, echo: `+${number}` }] }, []),
        );
        expect(body).not.toContain(number);
        // A placeholder is kept as it is: a replay without the key matches placeholders themselves.
        expect(new Redactor(undefined).phone(`+${placeholders[0]}`)).toBe(`+${placeholders[0]}`);
      }),
    );
  });

  it('keeps message text and values that spell no number, and maps placeholders back to the numbers sent', async () => {
    const redactor = new Redactor('a-redaction-key-for-the-test');
    const body = (await redactor.body(
      { to: '+49 151 1234 5678', content: { body: 'Call +49 151 1234 5678' }, search: 'Ada' },
      [],
    )) as {
      to: string;
      content: { body: string };
    };
    expect(body.content.body).toBe('Call +49 151 1234 5678');
    expect(redactor.phone('Ada Lovelace')).toBe('Ada Lovelace');
    expect(redactor.mapBack(JSON.stringify({ phone: body.to }))).toBe('{"phone":"+4915112345678"}');
    expect(() => new Redactor('short')).toThrow('at least 16 characters');
  });
});

describe('redaction of e-mail addresses', () => {
  it('gives one address one placeholder in any case, at a domain that reaches no one, and maps it back as sent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.emailAddress(), fc.string({ minLength: 16 }), async (address, key) => {
        const redactor = new Redactor(key);
        const body = (await redactor.body(
          { email: address, data: [{ owner_email: address.toUpperCase(), note: 'kept' }], content: { body: address } },
          [],
        )) as { email: string; data: Array<{ owner_email: string; note: string }>; content: { body: string } };
        expect(body.email).toMatch(/^redacted-[0-9a-f]{12}@example\.invalid$/);
        expect([body.data[0]!.owner_email, body.data[0]!.note]).toEqual([body.email, 'kept']);
        // Message text keeps what the customer wrote, as it keeps numbers.
        expect(body.content.body).toBe(address);
        expect(JSON.stringify({ ...body, content: undefined }).toLowerCase()).not.toContain(address.toLowerCase());
        expect(redactor.email(body.email)).toBe(body.email);
        // Back to the spelling the app sent last (here the upper-case one).
        expect(JSON.parse(redactor.mapBack(JSON.stringify({ email: body.email })))).toEqual({
          email: address.toUpperCase(),
        });
      }),
    );
  });

  it('keeps a value without an @ in an e-mail field, and a placeholder another key made', async () => {
    const redactor = new Redactor('a-redaction-key-for-the-test');
    expect(await redactor.body({ email: '', emails_sent: 3, email_verified: true, email_note: 'none' }, [])).toEqual({
      email: '',
      emails_sent: 3,
      email_verified: true,
      email_note: 'none',
    });
    const other = new Redactor('another-redaction-key-000').email('ada@example.com');
    expect(await redactor.body({ email: other }, [])).toEqual({ email: other });
    expect(redactor.mapBack(JSON.stringify({ email: other }))).toBe(JSON.stringify({ email: other }));
  });
});

describe('what redaction replaces and what it keeps', () => {
  const redactor = new Redactor('a-redaction-key-for-the-test');
  const p = (digits: string) => redactor.placeholder(digits);

  it('replaces numbers under phone-like names in every form, in paths and in texts; secrets under any secret name', async () => {
    expect(
      await redactor.body(
        {
          recipient: '+49 176 1234 5005',
          wa_id: '4917612345004',
          msisdn: 4917612345008,
          contact: { mobile: '+49-176-12345006', phone_number: '(+49) 176 12345007' },
          recipients: ['+4917612345011', '0049 176 12345012'],
          metadata: { tel: 'tel:+4917612345014' },
          custom_fields: { backup_phone: '+49 176 12345015' },
          error: { message: 'Contact 4917612345016 does not exist; call +49 176 12345017.' },
          signing_secret: 'whsec_SIGN',
          client_secret: 'plain',
          hook: { note: 'signed with whsec_abcdefgh and sk_live_abcdefgh' },
        },
        [],
      ),
    ).toEqual({
      recipient: `+${p('4917612345005')}`,
      wa_id: p('4917612345004'),
      msisdn: Number(p('4917612345008')),
      contact: { mobile: `+${p('4917612345006')}`, phone_number: `+${p('4917612345007')}` },
      recipients: [`+${p('4917612345011')}`, `+${p('4917612345012')}`],
      metadata: { tel: `tel:+${p('4917612345014')}` },
      custom_fields: { backup_phone: `+${p('4917612345015')}` },
      error: { message: `Contact ${p('4917612345016')} does not exist; call +${p('4917612345017')}.` },
      signing_secret: '<redacted>',
      client_secret: '<redacted>',
      hook: { note: 'signed with <redacted> and <redacted>' },
    });
    expect(redactor.path('/contacts/4917612345016', [])).toBe(`/contacts/${p('4917612345016')}`);
    expect(redactor.path('/contacts/%2B4917612345016/tags', [])).toBe(`/contacts/%2B${p('4917612345016')}/tags`);
  });

  it('keeps message text, times, ids, short numbers and the digits of non-phone JSON numbers', async () => {
    const kept = {
      to: 'Ada',
      message: 'Call me at +49 176 12345018',
      content: { body: 'Your code is 4711, call +49 176 12345019', components: [{ text: '4917612345020' }] },
      id: '550e8400-e29b-41d4-a716-446655440000',
      created_at: '2026-11-26T13:44:34.000Z',
      timestamp: '1795000000',
      note: 'order 1234567, 3.14159265358, v2026-11-26',
      count: 4917612345021,
      phone_verified: true,
    };
    expect(await redactor.body(kept, [])).toEqual(kept);
  });
});

describe('redaction of a large text in slices', () => {
  /** Pieces of text where cuts could go wrong: numbers in every spelling, addresses, words, delimiters. */
  const piece = fc.oneof(
    digits.chain((number) => fc.constantFrom(...spellings(number), `tel:+${number}`, `%2B${number}`)),
    fc.emailAddress(),
    fc.constantFrom(
      'Call',
      'or',
      'write to',
      'x',
      '(',
      ')',
      '-',
      '.',
      '/',
      ' ',
      '  ',
      ',',
      ';',
      '"',
      '\n',
      '+',
      '00',
      '2026-11-28',
    ),
    fc.stringMatching(/^[a-z0-9 +().-]{1,12}$/),
  );

  it('gives what one pass over the whole text gives, wherever the slices are cut', async () => {
    const redactor = new Redactor('a-redaction-key-for-the-test');
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 60 }), async (pieces) => {
        const unit = pieces.join(' ');
        // Past several slices of 16 KiB, so that cuts fall everywhere in the pieces.
        const text = unit.repeat(Math.ceil(60_000 / unit.length));
        expect(await redactor.textInSlices(text, [])).toBe(redactor.text(text, []));
      }),
      { numRuns: 40 },
    );
  });
});
