// Secrets removed from what errors keep and show: bodies, headers, short texts. A key is removed only
// where it stands whole, not inside a longer run of key characters: a short test key (`'e'`,
// `'test'`) must not cut words, codes or JSON apart, and no redaction changes an error's code or class.
/** What stands in for a secret in anything we keep or show. */
const REDACTED = '[REDACTED]';

/** Characters a key is made of: a run of them is one word, and the key is removed only as a whole word. */
const KEY_CHARACTER = 'A-Za-z0-9_\\-';

/** The pattern of the last secret asked for (a client asks for its own key again and again). */
let cached: { secret: string; lower: string; whole: RegExp } | undefined;

/**
 * `secret` where it stands whole, as a global pattern, in its own case or lower-cased: a key that
 * found its way into a URL's host comes back lower-cased (hosts are case-insensitive, and URL
 * parsing lowers them), in an error's text and in a runtime's own messages.
 */
function patternOf(secret: string): { lower: string; whole: RegExp } {
  if (cached?.secret !== secret) {
    const lower = secret.toLowerCase();
    const forms = (lower === secret ? [secret] : [secret, lower]).map((form) =>
      form.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'),
    );
    const whole = new RegExp(`(?<![${KEY_CHARACTER}])(?:${forms.join('|')})(?![${KEY_CHARACTER}])`, 'g');
    cached = { secret, lower, whole };
  }
  cached.whole.lastIndex = 0;
  return cached;
}

/** True when `text` holds `secret` standing whole. */
function holds(text: string, secret: string): boolean {
  if (secret === '') return false;
  const { lower, whole } = patternOf(secret);
  return (text.includes(secret) || text.includes(lower)) && whole.test(text);
}

/** `text` with every whole occurrence of `secret` replaced, so a server echoing the key cannot leak it. */
function redact(text: string, secret: string): string {
  return holds(text, secret) ? text.replace(patternOf(secret).whole, REDACTED) : text;
}

/**
 * A response body with the secret removed. A JSON body is cleaned value by value and
 * serialised again, since escapes (`\"`, `\u00e9`) can hide the secret from a text search
 * and a text replacement could cut an escape in half; any other body is cleaned as text.
 */
export function redactBody(text: string, secret: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return redact(text, secret);
  }
  return containsSecret(parsed, secret) ? JSON.stringify(redactValue(parsed, secret)) : text;
}

function containsSecret(value: unknown, secret: string): boolean {
  if (typeof value === 'string') return holds(value, secret);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, item]) => holds(key, secret) || containsSecret(item, secret));
}

/** A JSON value with every whole occurrence of `secret` removed from its strings and keys. */
export function redactValue(value: unknown, secret: string): unknown {
  if (typeof value === 'string') return redact(value, secret);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secret));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [redact(key, secret), redactValue(item, secret)]),
  );
}

/**
 * A copy of response headers with the secret removed from every value; a header whose name
 * holds the secret is left out, since "[REDACTED]" is not a valid header name.
 */
export function redactHeaders(headers: Headers, secret: string): Headers {
  const clean = new Headers();
  const lowerSecret = secret.toLowerCase();
  headers.forEach((value, name) => {
    if (!holds(name, lowerSecret)) clean.append(name, redact(value, secret));
  });
  return clean;
}

/** `text` with the secret removed, for short texts such as a status line. */
export function redactText(text: string, secret: string): string {
  return redact(text, secret);
}

/**
 * What was thrown, to keep as an error's `cause`; when it (or a cause of it) shows the secret, as a
 * user's `fetch` or hook may, an Error in its place with its name and message, the secret removed:
 * `util.inspect` and `console.error` print causes whole.
 */
export function causeWithoutSecret(thrown: unknown, secret: string): unknown {
  if (secret === '' || !showsSecret(thrown, secret, 0)) return thrown;
  return new Error(redact(thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown), secret));
}

/** Whether `value`, its own fields or its causes (so deep) hold the secret. */
function showsSecret(value: unknown, secret: string, depth: number): boolean {
  if (depth > 8 || value === undefined || value === null) return false;
  if (typeof value === 'string') return holds(value, secret);
  if (value instanceof Error && holds(`${value.message}\n${value.stack ?? ''}`, secret)) return true;
  let fields: string | undefined;
  try {
    fields = JSON.stringify(value);
  } catch {
    return true; // what cannot be read through cannot be shown to be safe
  }
  if (fields !== undefined && holds(fields, secret)) return true;
  return value instanceof Error && showsSecret(value.cause, secret, depth + 1);
}
