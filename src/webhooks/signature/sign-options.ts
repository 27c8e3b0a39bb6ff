import { describeValue, payloadInput, secretList } from './inputs.js';

/** Options of `signWebhook` and `signWebhookAsync`. */
export interface SignWebhookOptions {
  /** Prefix the hex digest with `sha256=` (default true), as the service's header does. */
  prefix?: boolean;
}

/** The checked arguments of a signing: the payload, the one secret, and whether to prefix. */
export function checkedSignInputs(payload: unknown, secret: unknown, options: unknown, caller: string) {
  const body = payloadInput(payload, caller);
  if (Array.isArray(secret)) throw new TypeError(`${caller} signs with one secret: pass a string.`);
  const [key] = secretList(secret, caller);
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${caller}: options must be an object ({ prefix? }), got ${describeValue(options)}.`);
  }
  const { prefix = true } = options as SignWebhookOptions;
  if (typeof prefix !== 'boolean')
    throw new TypeError(`${caller}: prefix must be true or false, got ${describeValue(prefix)}.`);
  return { body, key: key!, prefix };
}
