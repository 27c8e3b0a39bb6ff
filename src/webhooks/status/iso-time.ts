// Times as the status records keep them: one ISO 8601 form, so that comparing strings compares times.
import { readTimestamp } from '../../shared/timestamp.js';

/**
 * `value` as `YYYY-MM-DDTHH:mm:ss.sssZ` (what `Date#toISOString` writes): an ISO 8601 time in any
 * form, or seconds or milliseconds since the epoch; undefined for anything else.
 */
export function isoTime(value: unknown): string | undefined {
  const ms = readTimestamp(value);
  if (ms === undefined) return undefined;
  const time = new Date(ms).toISOString();
  // Years past 9999 are written with a sign and six digits, which would not sort as strings.
  return time.length === 24 ? time : undefined;
}
