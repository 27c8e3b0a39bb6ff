/** What stands in for a secret in anything we keep or show. */
export const REDACTED = '[REDACTED]';

/** `text` with every occurrence of `secret` replaced, so a server echoing the key cannot leak it. */
export function redact(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join(REDACTED);
}
