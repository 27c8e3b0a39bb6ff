// The query of a call, as ky's `searchParams`.
import { describeValue, showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { isRecord } from '../../shared/guards.js';
import type { CallSpec } from '../wire/call.js';

/** The query as ky's `searchParams`, undefined when empty; a value a URL cannot carry is an argument error. */
export function searchParamsOf(
  call: CallSpec<unknown>,
  shownPath: string,
): Record<string, string | number | boolean> | undefined {
  if (call.query === undefined) return undefined;
  if (!isRecord(call.query)) {
    throw new InvalidArgumentError(
      `The parameters of ${call.method} /${shownPath} must be an object, got ${describeValue(call.query)}.`,
    );
  }
  let params: Record<string, string | number | boolean> | undefined;
  for (const [key, value] of Object.entries(call.query)) {
    if (value === undefined) continue;
    if (!isQueryValue(value)) {
      throw new InvalidArgumentError(
        `The query parameter \`${key}\` of ${call.method} /${shownPath} must be a string, a finite number or a boolean, got ${showValue(value)}.`,
      );
    }
    (params ??= {})[key] = value;
  }
  return params;
}

function isQueryValue(value: unknown): value is string | number | boolean {
  return (
    typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
  );
}
