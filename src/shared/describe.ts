/** A short, secret-free description of a value's kind, for argument errors: "an object", "null". */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  const kind = typeof value;
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

/** How much of a string an argument error shows. */
const SHOWN_CHARS = 40;

/**
 * A value as an argument error shows it: a string quoted (so that "100" is not read as 100) and
 * cut short, another primitive as itself, anything else by its kind, since turning an object into
 * text can throw (no `toString`, a throwing `toJSON`) or run user code.
 */
export function showValue(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value);
  }
  return (typeof value === 'object' && value !== null) || typeof value === 'function'
    ? describeValue(value)
    : String(value);
}
