// The phone numbers a call's body carries, checked and written in the client's `phoneFormat`
// before anything is sent, so that every number leaves in one form: the clients plug this into
// core's `encodeBody` (core knows no phone number).
import { readArguments } from '../core/call/arguments.js';
import { checkOneOf } from '../shared/guards.js';
import type { BodyEncoder } from '../core/wire/call.js';
import { isRecord } from '../shared/guards.js';
import { phoneDigits, writePhone, type PhoneFormat } from '../shared/phone.js';

/** How a client writes the numbers it sends: in one form, or as given (checked all the same). */
export type ClientPhoneFormat = PhoneFormat | 'keep';

/** The values of the `phoneFormat` option. */
const PHONE_FORMATS: readonly ClientPhoneFormat[] = ['e164', 'digits', 'keep'];

/** The client's `phoneFormat` option, checked (`'e164'` when it is not given); read after core's options. */
export function phoneFormatOf(options: { readonly phoneFormat?: unknown } | undefined): ClientPhoneFormat {
  return readArguments('the client options', () =>
    checkOneOf(
      'The `phoneFormat` option',
      options?.phoneFormat === undefined ? 'e164' : options.phoneFormat,
      PHONE_FORMATS,
    ),
  );
}

/**
 * The `encodeBody` of a call whose body holds phone numbers in `fields`: the body with each of them
 * checked and written in `format` (a copy: the caller's object is not changed); an invalid number
 * is an `InvalidArgumentError` naming the field. A body that is no object is left to the body
 * check, which says so.
 */
export function writingPhones(fields: readonly string[], format: ClientPhoneFormat): BodyEncoder {
  return (body, what) => {
    if (!isRecord(body)) return body;
    const written: Record<string, unknown> = { ...body };
    for (const field of fields) {
      const value = written[field];
      if (value === undefined) continue;
      const digits = phoneDigits(value, `${what}, field \`${field}\``);
      if (format !== 'keep') written[field] = writePhone(digits, format);
    }
    return written;
  };
}
