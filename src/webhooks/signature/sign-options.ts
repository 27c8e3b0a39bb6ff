// The arguments of signWebhook and signWebhookAsync, checked.
import { showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { payloadInput, secretList } from './inputs.js';

/** Options of `signWebhook` and `signWebhookAsync`. */
export interface SignWebhookOptions {
  /** Prefix the hex digest with `sha256=` (default true), as the service's header does. */
  prefix?: boolean | undefined;
}

/** The checked arguments of a signing: the payload, the one secret, and whether to prefix. */
export function checkedSignInputs(payload: unknown, secret: unknown, options: unknown, caller: string) {
  const body = payloadInput(payload, caller);
  if (Array.isArray(secret)) throw new InvalidArgumentError(`${caller} signs with one secret: pass a string.`);
  const [key] = secretList(secret, caller);
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError(`${caller}: options must be an object ({ prefix? }), got ${showValue(options)}.`);
  }
  const { prefix = true } = options as SignWebhookOptions;
  if (typeof prefix !== 'boolean')
    throw new InvalidArgumentError(`${caller}: prefix must be true or false, got ${showValue(prefix)}.`);
  return { body, key: key!, prefix };
}
