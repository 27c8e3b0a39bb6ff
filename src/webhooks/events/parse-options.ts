// The options of parseWebhook and parseWebhookAsync, and every argument of a parse, checked.
import { showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { payloadInput, secretList } from '../signature/inputs.js';

/** Options of `parseWebhook` and `parseWebhookAsync`. */
export interface ParseWebhookOptions {
  /**
   * Reject events whose `timestamp` is further than this from `now` (replay protection).
   * Off by default: the service retries a delivery for about 26.6 hours (1 m + 5 m + 30 m +
   * 2 h + 24 h), so a shorter window rejects genuine retries.
   * @default undefined (no age check)
   */
  maxAgeSeconds?: number;
  /**
   * The current time, for `maxAgeSeconds`: a valid Date or milliseconds since the epoch.
   * @default Date.now()
   */
  now?: Date | number;
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
      `${caller}: options must be an object ({ maxAgeSeconds?, now? }), got ${showValue(options)}.`,
    );
  }
  checkMaxAgeSeconds((options as ParseWebhookOptions).maxAgeSeconds, caller);
  checkNow((options as ParseWebhookOptions).now, caller);
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
