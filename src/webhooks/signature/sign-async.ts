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
  const digest = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(key), payloadBytes(body)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return prefix ? `sha256=${hex}` : hex;
}
