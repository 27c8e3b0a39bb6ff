/** A short, secret-free description of a value's kind, for argument errors: "an object", "null". */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  const kind = typeof value;
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

/**
 * A value as an argument error shows it: a primitive as itself, anything else by its kind, since
 * turning an object into text can throw (no `toString`, a throwing `toJSON`) or run user code.
 */
export function showValue(value: unknown): string {
  return (typeof value === 'object' && value !== null) || typeof value === 'function'
    ? describeValue(value)
    : String(value);
}
