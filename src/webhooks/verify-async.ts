import { payloadBytes, payloadInput, secretList, signatureBytes, type WebhookPayload, type WebhookSecret } from './inputs.js';

const MAX_CACHED_KEYS = 32;
const keys = new Map<string, Promise<CryptoKey>>();
const encoder = /* @__PURE__ */ new TextEncoder();

/** `verifyWebhook` on Web Crypto, for Workers, Deno, Bun and browsers; imported keys are cached per secret. */
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
    secrets.map(async (key) => crypto.subtle.verify('HMAC', await hmacKey(key), expected, body as Uint8Array<ArrayBuffer>)),
  );
  return results.includes(true);
}

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (key === undefined) {
    if (keys.size >= MAX_CACHED_KEYS) keys.delete(keys.keys().next().value!);
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    keys.set(secret, key);
  }
  return key;
}
