import { nodeCrypto } from './node-crypto.js';
import { payloadInput, secretList, type WebhookPayload } from './inputs.js';

/** Options of `signWebhook`. */
export interface SignWebhookOptions {
  /** Prefix the hex digest with `sha256=` (default true), as the service's header does. */
  prefix?: boolean;
}

/** The `X-Service-Signature` value for `payload` under `secret`, e.g. to test a receiver. */
export function signWebhook(payload: WebhookPayload, secret: string, options: SignWebhookOptions = {}): string {
  const body = payloadInput(payload, 'signWebhook');
  if (Array.isArray(secret)) throw new TypeError('signWebhook signs with one secret: pass a string.');
  const [key] = secretList(secret, 'signWebhook');
  const hex = nodeCrypto('signWebhook').createHmac('sha256', key!).update(body).digest('hex');
  return options.prefix === false ? hex : `sha256=${hex}`;
}
