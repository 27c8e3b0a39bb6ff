// The phone numbers a call's body carries, checked and written in the client's `phoneFormat`
// before anything is sent, so that every number leaves in one form.
import { isRecord } from '../../shared/guards.js';
import { phoneDigits, writePhone, type PhoneFormat } from '../../shared/phone.js';

/** How a client writes the numbers it sends: in one form, or as given (checked all the same). */
export type ClientPhoneFormat = PhoneFormat | 'keep';

/** The values of the `phoneFormat` option. */
export const PHONE_FORMATS: readonly ClientPhoneFormat[] = ['e164', 'digits', 'keep'];

/**
 * `body` with each of `fields` that it holds checked as a phone number and written in `format`
 * (a copy: the caller's object is not changed); an invalid number is an `InvalidArgumentError`
 * naming the field. A body that is no object is left to the body check, which says so.
 */
export function formatPhones(
  body: unknown,
  fields: readonly string[] | undefined,
  format: ClientPhoneFormat,
  what: string,
): unknown {
  if (fields === undefined || !isRecord(body)) return body;
  const written: Record<string, unknown> = { ...body };
  for (const field of fields) {
    const value = written[field];
    if (value === undefined) continue;
    const digits = phoneDigits(value, `${what}, field \`${field}\``);
    if (format !== 'keep') written[field] = writePhone(digits, format);
  }
  return written;
}
