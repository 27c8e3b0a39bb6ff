// verifyWebhookAsync: constant-time HMAC-SHA256 check on Web Crypto.
import { hmacKey } from './hmac-key.js';
import {
  payloadBytes,
  payloadInput,
  secretList,
  signatureBytes,
  type WebhookPayload,
  type WebhookSecret,
} from './inputs.js';

/** `verifyWebhook` on Web Crypto, for every runtime (Workers and browsers included); imported keys are cached per secret. */
export async function verifyWebhookAsync(
  payload: WebhookPayload,
  signature: unknown,
  secret: WebhookSecret,
): Promise<boolean> {
  const body = payloadBytes(payloadInput(payload, 'verifyWebhookAsync'));
  const secrets = secretList(secret, 'verifyWebhookAsync');
  const expected = signatureBytes(signature);
  if (expected === undefined) return false;
  // crypto.subtle.verify compares in constant time; every secret is tried.
  const results = await Promise.all(
    secrets.map(async (key) => crypto.subtle.verify('HMAC', await hmacKey(key), expected, body)),
  );
  return results.includes(true);
}
