// How the page writes times, durations and bodies: virtual times in UTC (the mock's clock runs in
// real time plus what was advanced), JSON indented and inert, a phone number by its digits.
import { printable } from '../../../shared/printable.js';

/** A time on the virtual clock (ms or ISO 8601): `14:03:07`, with the date when not `today` (the clock's). */
export function timeOf(at: number | string, today?: number): string {
  const date = new Date(at);
  const iso = date.toISOString();
  const sameDay = today !== undefined && new Date(today).toISOString().slice(0, 10) === iso.slice(0, 10);
  return sameDay ? iso.slice(11, 19) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** How far `ms` is, for people: `in 59 s`, `in 4 min`, `in 2 h 5 min`, `in 1 d 3 h`; `due` when past. */
export function fromNow(ms: number): string {
  if (ms <= 0) return 'due';
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `in ${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `in ${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return `in ${h} h${min % 60 === 0 ? '' : ` ${min % 60} min`}`;
  return `in ${Math.floor(h / 24)} d${h % 24 === 0 ? '' : ` ${h % 24} h`}`;
}

/**
 * A body as text: JSON indented, a string as it is, nothing as `(none)`; inert (a body's JSON escapes
 * of control characters and bidi controls, read back by the parse, are written as escapes again).
 */
export function bodyText(body: unknown): string {
  if (body === null || body === undefined || body === '') return '(none)';
  return printable(typeof body === 'string' ? indented(body) : JSON.stringify(body, null, 2), { lines: true });
}

/** JSON text indented, or the text as it is when it is not JSON. */
function indented(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A phone number by its digits, as the mock matches numbers (`+49 151…` and `49151…` are one). */
export function phoneKey(phone: string): string {
  return phone.replace(/\D/g, '');
}

/** A value of a message's content as text: a string as it is, nothing as '', anything else as JSON. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}
