// Times as the status records keep them: one ISO 8601 form, so that comparing strings compares times.

/** `value` as `YYYY-MM-DDTHH:mm:ss.sssZ` (what `Date#toISOString` writes), or undefined when it is no date. */
export function isoTime(value: string): string | undefined {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return undefined;
  const time = new Date(ms).toISOString();
  // Years outside 0000-9999 are written with a sign and six digits, which would not sort as strings.
  return time.length === 24 ? time : undefined;
}
