// Shape checks on values users pass in.
import { showValue } from './describe.js';
import { InvalidArgumentError } from './errors.js';

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `value` is an object with a function under each of `names`: how a store or logger a user passes is recognised. */
export function hasMethods(value: unknown, names: readonly string[]): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function')
  );
}

/** True for an iterable or async iterable object (an array, a generator, a stream). */
export function isIterable(value: unknown): value is Iterable<unknown> | AsyncIterable<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  return Symbol.iterator in value || Symbol.asyncIterator in value;
}

/**
 * An integer option, checked: `fallback` when absent, else an integer from `min` to `max`, or an
 * `InvalidArgumentError` naming `what` ("The `prefetch` option") and what it accepts.
 */
export function checkInteger(what: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new InvalidArgumentError(`${what} must be an integer from ${min} to ${max}, got ${showValue(value)}.`);
  return value;
}

/** `value` when it is one of `values`, else an `InvalidArgumentError`: "`where` must be one of a, b, got x." */
export function checkOneOf<T extends string>(where: string, value: unknown, values: readonly T[]): T {
  if ((values as readonly unknown[]).includes(value)) return value as T;
  throw new InvalidArgumentError(`${where} must be one of ${values.join(', ')}, got ${showValue(value)}.`);
}
