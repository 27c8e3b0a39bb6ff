// The options of parseWebhook and parseWebhookAsync, and every argument of a parse, checked.
import { logDriftOnce, sendDrift, type DriftHandler } from '../../contract/drift-report.js';
import { showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { payloadInput, secretList } from '../signature/inputs.js';
import type { EventReading } from './parse-event.js';

/** Options of `parseWebhook` and `parseWebhookAsync`. */
export interface ParseWebhookOptions {
  /**
   * Reject events whose `timestamp` is further than this from `now` (replay protection).
   * Off by default: the service retries a delivery for about 26.6 hours (1 m + 5 m + 30 m +
   * 2 h + 24 h), so a shorter window rejects genuine retries.
   * @default undefined (no age check)
   */
  maxAgeSeconds?: number | undefined;
  /**
   * The current time, for `maxAgeSeconds`: a valid Date or milliseconds since the epoch.
   * @default Date.now()
   */
  now?: Date | number | undefined;
  /**
   * Called with how an event differs from what bizmsg expects (a field missing, unknown or of
   * another type; paths and type names, never a value), when it does. The event is returned as sent
   * all the same.
   * @default each (kind, path) logged once per process to the console (missing and mismatched as warnings)
   */
  onDrift?: DriftHandler | undefined;
}

/** What kind of field differs, said once per process when `onDrift` is not given. */
let consoleDrift: DriftHandler | undefined;

/** How a parse reads the verified body: the age check and the drift handler its options ask for. */
export function readingOf({ maxAgeSeconds, now, onDrift }: ParseWebhookOptions): EventReading {
  consoleDrift ??= logDriftOnce((level, message) => console[level](message), 'returned as sent');
  const handler = onDrift ?? consoleDrift;
  return {
    age: maxAgeSeconds === undefined ? undefined : { seconds: maxAgeSeconds },
    now,
    drift: (report) => sendDrift(report, handler, (error) => console.error('bizmsg: onDrift threw', error)),
  };
}

/**
 * Checks every argument of a parse before anything about the delivery is judged (a bad one is
 * the caller's mistake: an InvalidArgumentError) and returns the payload as text or bytes.
 */
export function checkedParseInputs(
  payload: unknown,
  secret: unknown,
  options: unknown,
  caller: string,
): string | Uint8Array {
  const body = payloadInput(payload, caller);
  secretList(secret, caller);
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError(
      `${caller}: options must be an object ({ maxAgeSeconds?, now?, onDrift? }), got ${showValue(options)}.`,
    );
  }
  checkMaxAgeSeconds((options as ParseWebhookOptions).maxAgeSeconds, caller);
  checkNow((options as ParseWebhookOptions).now, caller);
  checkCallback('onDrift', (options as ParseWebhookOptions).onDrift, caller);
  return body;
}

/**
 * Throws an InvalidArgumentError unless `maxAgeSeconds` is absent or a positive number (or, with
 * `orFalse`, false: the receivers' way to turn their default check off).
 */
export function checkMaxAgeSeconds(maxAgeSeconds: unknown, caller: string, orFalse = false): void {
  if (maxAgeSeconds === undefined || (typeof maxAgeSeconds === 'number' && maxAgeSeconds > 0)) return;
  if (orFalse && maxAgeSeconds === false) return;
  const off = orFalse ? ', or false to turn the check off' : '';
  throw new InvalidArgumentError(
    `${caller}: maxAgeSeconds must be a positive number of seconds${off}, got ${showValue(maxAgeSeconds)}.`,
  );
}

/** Throws an InvalidArgumentError unless `now` is absent, a valid Date or a finite number: an unusable clock must not let stale events through. */
function checkNow(now: unknown, caller: string): void {
  if (now === undefined) return;
  const valid = typeof now === 'number' ? Number.isFinite(now) : now instanceof Date && !Number.isNaN(now.getTime());
  if (!valid) {
    throw new InvalidArgumentError(
      `${caller}: now must be a valid Date or a number of milliseconds since the epoch (Date.now()), got ${showValue(now)}.`,
    );
  }
}

/** Throws an InvalidArgumentError unless the option `name` (`onDrift`, a receiver's `onEvent`…) is absent or a function. */
export function checkCallback(name: string, value: unknown, caller: string): void {
  if (value !== undefined && typeof value !== 'function')
    throw new InvalidArgumentError(`${caller}: ${name} must be a function, got ${showValue(value)}.`);
}
