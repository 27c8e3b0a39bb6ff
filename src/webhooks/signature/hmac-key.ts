// Web Crypto HMAC keys, imported once per secret.
const MAX_CACHED_KEYS = 32;
const keys = new Map<string, Promise<CryptoKey>>();
const encoder = /* @__PURE__ */ new TextEncoder();

/** The Web Crypto HMAC-SHA256 key of a secret, imported once and cached (a few secrets are in use at a time). */
export function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (key === undefined) {
    if (keys.size >= MAX_CACHED_KEYS) keys.delete(keys.keys().next().value!);
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    keys.set(secret, key);
  }
  return key;
}
