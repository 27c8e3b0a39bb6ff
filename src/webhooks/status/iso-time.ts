// Times as the status records keep them: one ISO 8601 form, so that comparing strings compares times.

/**
 * ISO 8601 with a date, a time and a zone: a time without a zone would be read in each process's
 * own zone, and `Date.parse` alone takes much that is no ISO date ("1", "March 7").
 */
const ISO_8601 = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/i;

/** `value` as `YYYY-MM-DDTHH:mm:ss.sssZ` (what `Date#toISOString` writes), or undefined when it is no ISO 8601 time. */
export function isoTime(value: string): string | undefined {
  if (!ISO_8601.test(value)) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return undefined;
  const time = new Date(ms).toISOString();
  // Years past 9999 are written with a sign and six digits, which would not sort as strings.
  return time.length === 24 ? time : undefined;
}
