// verifyWebhook: constant-time HMAC-SHA256 check on node:crypto.
import { createHmac } from 'node:crypto';
import { payloadInput, secretList, signatureBytes, type WebhookPayload, type WebhookSecret } from './inputs.js';

/**
 * True when `signature` is the HMAC-SHA256 of the exact raw `payload` under `secret` (or under
 * any of several secrets), compared in constant time. Never throws on a bad signature. Needs
 * node:crypto (Node, Bun, Deno): on Workers and in browsers (the Web build) it throws, naming
 * `verifyWebhookAsync`.
 */
export function verifyWebhook(payload: WebhookPayload, signature: unknown, secret: WebhookSecret): boolean {
  const body = payloadInput(payload, 'verifyWebhook');
  const secrets = secretList(secret, 'verifyWebhook');
  const expected = signatureBytes(signature);
  if (expected === undefined) return false;
  let matched = false;
  // Every secret is tried, so timing does not tell which one matched.
  for (let i = 0; i < secrets.length; i++) {
    matched = sameDigest(createHmac('sha256', secrets[i]!).update(body).digest('binary'), expected) || matched;
  }
  return matched;
}

/**
 * Compares a digest (as a 'binary' (latin1) string, one char per byte: cheaper to get from node:crypto
 * than a Buffer) with the signature's bytes, looking at every byte whatever differs.
 */
function sameDigest(digest: string, expected: Uint8Array): boolean {
  let difference = digest.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) difference |= digest.charCodeAt(i) ^ expected[i]!;
  return difference === 0;
}
