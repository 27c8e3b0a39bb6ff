// The options every run takes (work in flight at once, a signal that stops it), checked before anything starts.
import { showValue } from '../shared/describe.js';
import { InvalidArgumentError } from '../shared/errors.js';

/** Work in flight at once: the default, and the most a run takes. */
export const CONCURRENCY = { default: 8, max: 256 } as const;

/** A run's options, checked. */
export interface RunSettings {
  readonly concurrency: number;
  readonly signal: AbortSignal | undefined;
}

/** Checks `concurrency` and `signal`; a mistake is an `InvalidArgumentError` opening with `owner` (`sendBulk`). */
export function checkRunOptions(owner: string, options: { concurrency?: unknown; signal?: unknown }): RunSettings {
  const { concurrency = CONCURRENCY.default, signal } = options;
  const fail = (what: string, value: unknown) => {
    throw new InvalidArgumentError(`${owner}: \`${what}, got ${showValue(value)}.`);
  };
  if (
    typeof concurrency !== 'number' ||
    !Number.isInteger(concurrency) ||
    concurrency < 1 ||
    concurrency > CONCURRENCY.max
  )
    fail(`concurrency\` must be an integer from 1 to ${CONCURRENCY.max}`, concurrency);
  if (signal !== undefined && !(signal instanceof AbortSignal)) fail('signal` must be an AbortSignal', signal);
  return { concurrency: concurrency as number, signal: signal as AbortSignal | undefined };
}
