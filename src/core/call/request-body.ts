// The JSON body of a call, serialised once and checked before anything is sent.
import { describeValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { isRecord } from '../../shared/guards.js';

/**
 * The JSON text of a request body. A body that JSON cannot represent (a cycle, a BigInt, a
 * `toJSON` that throws, a NaN or Infinity, which JSON.stringify would quietly send as null) is
 * the caller's mistake, found before anything is sent, so it is an `InvalidArgumentError` naming
 * the field rather than a network failure.
 */
export function serializeBody(body: unknown, what: string): string {
  if (!isRecord(body)) {
    throw new InvalidArgumentError(`${what} must be an object, got ${describeValue(body)}.`);
  }
  try {
    return JSON.stringify(body, rejectNonFinite);
  } catch (error) {
    const field = findUnserializable(body);
    const where = field === undefined || field.length === 0 ? '' : ` at "${field.join('.')}"`;
    throw new InvalidArgumentError(`${what} cannot be sent as JSON${where}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function rejectNonFinite(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new TypeError(`${value} is no JSON number (JSON.stringify would send null)`);
  }
  return value;
}

/** The error for a method called without its parameters object, or undefined when `params` is one. */
export function paramsError(params: unknown, method: string): InvalidArgumentError | undefined {
  return isRecord(params)
    ? undefined
    : new InvalidArgumentError(`${method} needs an object of parameters, got ${describeValue(params)}.`);
}

/** Path of the first value JSON.stringify fails on; undefined when the walk itself throws (a getter). */
function findUnserializable(body: unknown): string[] | undefined {
  try {
    return unserializableField(body, [], new Set());
  } catch {
    return undefined;
  }
}

/** Path of the first value JSON.stringify fails on; `ancestors` detects cycles. */
function unserializableField(value: unknown, path: string[], ancestors: Set<object>): string[] | undefined {
  if (typeof value === 'bigint' || (typeof value === 'number' && !Number.isFinite(value))) return path;
  if (typeof value !== 'object' || value === null) return undefined;
  if (ancestors.has(value)) return path;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    try {
      JSON.stringify(value);
      return undefined;
    } catch {
      return path;
    }
  }
  ancestors.add(value);
  for (const [key, item] of Object.entries(value)) {
    const found = unserializableField(item, [...path, key], ancestors);
    if (found !== undefined) return found;
  }
  ancestors.delete(value);
  return undefined;
}
