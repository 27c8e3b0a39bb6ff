// signWebhookAsync: the signature header on Web Crypto.
import { toHex } from '../../shared/sha256.js';
import { hmacKey } from './hmac-key.js';
import { payloadBytes, type WebhookPayload } from './inputs.js';
import { checkedSignInputs, type SignWebhookOptions } from './sign-options.js';

/** `signWebhook` on Web Crypto, for every runtime (Workers and browsers included). */
export async function signWebhookAsync(
  payload: WebhookPayload,
  secret: string,
  options: SignWebhookOptions = {},
): Promise<string> {
  const { body, key, prefix } = checkedSignInputs(payload, secret, options, 'signWebhookAsync');
  const hex = toHex(new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(key), payloadBytes(body))));
  return prefix ? `sha256=${hex}` : hex;
}
