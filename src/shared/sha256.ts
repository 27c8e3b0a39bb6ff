/**
 * The SHA-256 of an API key as lower-case hex: what names the key's budget in a shared
 * store, so that the key itself never leaves the process.
 */
export async function hashApiKey(apiKey: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(apiKey));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
