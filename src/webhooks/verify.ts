import { nodeCrypto } from './node-crypto.js';
import { payloadInput, secretList, signatureBytes, type WebhookPayload, type WebhookSecret } from './inputs.js';

/**
 * True when `signature` is the HMAC-SHA256 of the exact raw `payload` under `secret` (or under
 * any of several secrets), compared in constant time. Never throws on a bad signature.
 */
export function verifyWebhook(payload: WebhookPayload, signature: unknown, secret: WebhookSecret): boolean {
  const body = payloadInput(payload, 'verifyWebhook');
  const secrets = secretList(secret, 'verifyWebhook');
  const expected = signatureBytes(signature);
  if (expected === undefined) return false;
  const { createHmac, timingSafeEqual } = nodeCrypto('verifyWebhook');
  let matched = false;
  // Every secret is tried, so timing does not tell which one matched.
  for (const key of secrets) {
    matched = timingSafeEqual(createHmac('sha256', key).update(body).digest(), expected) || matched;
  }
  return matched;
}
