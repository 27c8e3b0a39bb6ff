// The options every run takes (work in flight at once, a signal that stops it), checked before anything starts.
import { showValue } from '../shared/describe.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { checkInteger } from '../shared/guards.js';

/** Work in flight at once: the default, and the most a run takes. */
export const CONCURRENCY = { default: 8, max: 256 } as const;

/** A run's options, checked. */
export interface RunSettings {
  readonly concurrency: number;
  readonly signal: AbortSignal | undefined;
}

/** Checks `concurrency` and `signal`; a mistake is an `InvalidArgumentError` opening with `owner` (`sendBulk`). */
export function checkRunOptions(owner: string, options: { concurrency?: unknown; signal?: unknown }): RunSettings {
  const { signal } = options;
  const concurrency = checkInteger(
    `${owner}: \`concurrency\``,
    options.concurrency,
    CONCURRENCY.default,
    1,
    CONCURRENCY.max,
  );
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw new InvalidArgumentError(`${owner}: \`signal\` must be an AbortSignal, got ${showValue(signal)}.`);
  return { concurrency, signal };
}
