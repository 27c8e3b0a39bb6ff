// Reading what a caller passed, so that anything it throws is reported as an argument error.
import { showValue } from '../../shared/describe.js';
import { BizMsgError, InvalidArgumentError } from '../../shared/errors.js';

/**
 * Runs `read`, which reads what the caller passed. A getter, `toString` or `toJSON` of the
 * caller's that throws is the caller's mistake, found before anything is sent, so whatever
 * `read` throws that is not already a `BizMsgError` becomes an `InvalidArgumentError`.
 */
export function readArguments<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (BizMsgError.is(error)) throw error;
    throw new InvalidArgumentError(`Reading ${what} threw: ${describeThrown(error)}`, { cause: error });
  }
}

function describeThrown(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : showValue(error);
  } catch {
    return 'an error that cannot be described';
  }
}
