// Reading a time the service sent: ISO 8601 in any of its forms, or seconds or milliseconds since
// the epoch (a number, or a string of digits), as chat APIs send them.

/**
 * ISO 8601: a date (extended `2026-11-21` or basic `20261121`), optionally a time (`T` or a space,
 * minutes, seconds and a fraction optional) and a zone (`Z`, `+02`, `+0200`, `+02:00`; none is
 * read as UTC, as the spec's timestamps are).
 */
const ISO_8601 =
  /^(\d{4})-?(\d\d)-?(\d\d)(?:[T ](\d\d)(?::?(\d\d)(?::?(\d\d)(?:[.,](\d{1,9}))?)?)?)?\s*(Z|[+-]\d\d(?::?\d\d)?)?$/i;

/** Above this a number since the epoch is in milliseconds (1e12 ms is 2001; 1e12 s is the year 33658). */
const MILLISECONDS_ABOVE = 1e12;

/** True when `value` is an ISO 8601 time that `readTimestamp` reads. */
export function isIsoTimestamp(value: string): boolean {
  return isoMs(value) !== undefined;
}

/**
 * The instant `value` stands for, in milliseconds since the epoch: an ISO 8601 string in any of its
 * forms, or a positive number (or string of digits) of seconds since the epoch, of milliseconds
 * above 1e12. Undefined for anything else.
 */
export function readTimestamp(value: unknown): number | undefined {
  return (typeof value === 'string' ? isoMs(value.trim()) : undefined) ?? readEpoch(value);
}

/**
 * `readTimestamp` for a time since the epoch only (a number, or a string of digits): the clients'
 * reading of an epoch sent where ISO 8601 was expected, without the ISO parser in their bundle.
 */
export function readEpoch(value: unknown): number | undefined {
  if (typeof value === 'string') return /^\d+(\.\d+)?$/.test(value) ? epochMs(Number(value)) : undefined;
  return typeof value === 'number' ? epochMs(value) : undefined;
}

function epochMs(value: number): number | undefined {
  if (!Number.isFinite(value) || value <= 0) return undefined;
  const ms = value > MILLISECONDS_ABOVE ? value : value * 1000;
  return ms <= 8.64e15 ? Math.round(ms) : undefined;
}

function isoMs(value: string): number | undefined {
  const parts = ISO_8601.exec(value);
  if (parts === null) return undefined;
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map((part) => Number(part ?? 0));
  // Date.UTC rolls a day or month out of range over ("02-31" is in March): refuse it instead.
  const date = Date.UTC(year!, month! - 1, day);
  if (month! < 1 || month! > 12 || new Date(date).getUTCDate() !== day || hour! > 23 || minute! > 59 || second! > 59)
    return undefined;
  const fraction = Math.round(Number(`0.${parts[7] ?? 0}`) * 1000);
  return date + ((hour! * 60 + minute!) * 60 + second!) * 1000 + fraction - zoneMs(parts[8]);
}

/** The offset of a zone from UTC in ms (`+02:00` is 2 h ahead); none or `Z` is UTC. */
function zoneMs(zone: string | undefined): number {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0);
  return (zone[0] === '-' ? -minutes : minutes) * 60_000;
}
