// A customer's number as a test writes it, in any spelling, read into the E.164 form the mock keeps:
// what `receiveMessage` and `customer(phone)` take, in process and over the control API.
import { InvalidArgumentError } from '../../shared/errors.js';
import { phoneDigits, samePhone, writePhone } from '../../shared/phone.js';
import { badArgument } from './errors.js';

/**
 * Whether `value` spells an international number in any spelling (`+44 7700 900124`,
 * `0044 7700 900124`, `447700900124`, `tel:+447700900124`).
 */
export function spellsPhone(value: unknown): boolean {
  // samePhone never throws: it is true exactly when the spelling reads as a number.
  return typeof value === 'string' && samePhone(value, value);
}

/** The number `value` spells, in E.164 (`+447700900124`); call `spellsPhone` first. */
export function e164(value: string): string {
  return writePhone(phoneDigits(value, 'phone'), 'e164');
}

/**
 * The number `value` spells, in E.164; a `ControlArgumentError` (400, field `phone`) naming the
 * value and what is wrong with it when it spells none. `what` opens the message (`customer`).
 */
export function customerPhone(value: unknown, what: string): string {
  try {
    return writePhone(phoneDigits(value, what), 'e164');
  } catch (error) {
    if (!InvalidArgumentError.is(error)) throw error;
    const message = `${error.message} Write it in international form: +44 7700 900124, 0044 7700 900124 or tel:+447700900124.`;
    throw badArgument('phone', 'is not an international phone number', message);
  }
}
