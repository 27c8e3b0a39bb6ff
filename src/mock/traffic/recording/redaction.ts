// What a recording must not hold, replaced: phone numbers by placeholders derived by HMAC-SHA256 under
// the redaction key (one number, one placeholder, in any spelling), webhook secrets and the API key by
// "<redacted>". The replay redacts the requests it gets alike, and maps placeholders back.
import { createHmac, randomBytes } from 'node:crypto';
import { InvalidArgumentError } from '../../../shared/errors.js';
import { spelledDigits } from '../../../shared/phone.js';

/** Stands for a secret in a recording. */
export const REDACTED = '<redacted>';
/**
 * The placeholders' range: country code 999, a spare code of ITU-T E.164 that reaches no one,
 * then 10 digits. A number in it is a placeholder already, and stays as it is.
 */
const PLACEHOLDER_CODE = '999';
const PLACEHOLDER = /^999\d{10}$/;
/** Anywhere in a text: a placeholder's digits, not inside a longer run of digits. */
const PLACEHOLDERS = /(?<!\d)999\d{10}(?!\d)/g;
/** The fields that hold a phone number (at any depth of a body), and the query parameter that may. */
const PHONE_FIELDS: ReadonlySet<string> = new Set(['to', 'from', 'phone']);
const PHONE_QUERY: ReadonlySet<string> = new Set(['search', 'to', 'from', 'phone']);
/** The fields that hold a webhook's signing secret. */
const SECRET_FIELDS: ReadonlySet<string> = new Set(['secret']);
/** Fewer digits than this are no number worth hiding (a search for "12"). */
const MIN_DIGITS = 4;
/**
 * A number of at least this many digits, once seen in a phone field, is replaced in any field whose
 * whole value spells it (a service that echoes it as `recipient`); message text is kept.
 */
const WHOLE_NUMBER = 8;
/** How many numbers a replay remembers to map back. */
const REMEMBERED = 10_000;

/** Redacts the values of one proxy or replay under one key. */
export class Redactor {
  readonly #key: Buffer;
  /** Each placeholder's digits and the digits of the number it stands for, as the app sent them (a replay maps them back). */
  readonly #numbers = new Map<string, string>();
  /** The digits of the whole numbers seen in phone fields, and their placeholders: wherever a field holds one, it is replaced. */
  readonly #known = new Map<string, string>();

  /**
   * `key`: the redaction key (`--redaction-key`); undefined: `BIZMSG_REDACTION_KEY`, else a random
   * one, for this process only.
   */
  constructor(key: unknown) {
    const given = checkedKey(key ?? process.env.BIZMSG_REDACTION_KEY);
    this.#key = given === undefined ? randomBytes(32) : Buffer.from(given, 'utf8');
  }

  /** The placeholder of a number's digits: itself when it is one. */
  placeholder(digits: string): string {
    if (PLACEHOLDER.test(digits)) return digits;
    const hash = createHmac('sha256', this.#key).update(digits).digest();
    const tail = (hash.readBigUInt64BE(0) % 10_000_000_000n).toString().padStart(10, '0');
    const placeholder = `${PLACEHOLDER_CODE}${tail}`;
    remember(this.#numbers, placeholder, digits);
    if (digits.length >= WHOLE_NUMBER) remember(this.#known, digits, placeholder);
    return placeholder;
  }

  /**
   * A value of a phone field with its number replaced by the placeholder, spelled alike (a `+`
   * kept, bare digits bare); a value that spells no number (a name searched for) as it is.
   */
  phone(value: unknown): unknown {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0)
      return Number(this.placeholder(String(value)));
    if (typeof value !== 'string') return value;
    const digits = digitsOf(value);
    if (digits.length < MIN_DIGITS) return value;
    const placeholder = this.placeholder(digits);
    return /^\s*(\+|00)/.test(value) ? `+${placeholder}` : placeholder;
  }

  /**
   * A JSON body with every phone field's number (and any field that holds a number seen in one),
   * every webhook secret and each of `secrets` (the API key, wherever it appears) replaced. Message
   * text and everything else is kept.
   */
  body(value: unknown, secrets: readonly string[]): unknown {
    return this.#walk(value, undefined, secrets);
  }

  /** A query with its phone parameters' numbers and `secrets` replaced. */
  query(params: URLSearchParams, secrets: readonly string[]): Record<string, string | string[]> {
    const query: Record<string, string | string[]> = {};
    for (const [name, raw] of params) {
      const value = PHONE_QUERY.has(name) ? String(this.phone(raw)) : withoutSecrets(raw, secrets);
      const seen = query[name];
      query[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
    }
    return query;
  }

  /**
   * A path with `secrets` replaced, and any segment that spells an international number with its
   * prefix (`+49…`, `0049…`; bare digits are an id) replaced as a phone field's.
   */
  path(path: string, secrets: readonly string[]): string {
    return withoutSecrets(
      path
        .split('/')
        .map((segment) => {
          const decoded = safeDecode(segment);
          const { digits } = spelledDigits(decoded);
          return digits !== undefined && digits.length >= 8 && /^(\+|00)/.test(decoded)
            ? encodeURIComponent(String(this.phone(decoded)))
            : segment;
        })
        .join('/'),
      secrets,
    );
  }

  /** `text` with each placeholder this redactor made for a number the app sent replaced by that number's digits. */
  mapBack(text: string): string {
    return text.replace(PLACEHOLDERS, (placeholder) => this.#numbers.get(placeholder) ?? placeholder);
  }

  #walk(value: unknown, field: string | undefined, secrets: readonly string[]): unknown {
    if (field !== undefined && SECRET_FIELDS.has(field) && typeof value === 'string') return REDACTED;
    if (field !== undefined && PHONE_FIELDS.has(field) && typeof value !== 'object') return this.phone(value);
    if (typeof value === 'string')
      return this.#known.has(digitsOf(value)) ? this.phone(value) : withoutSecrets(value, secrets);
    if (Array.isArray(value)) return value.map((item) => this.#walk(item, field, secrets));
    if (typeof value !== 'object' || value === null) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = this.#walk(item, key, secrets);
    return copy;
  }
}

/** Keeps `key` in `map`, forgetting the oldest past `REMEMBERED`. */
function remember(map: Map<string, string>, key: string, value: string): void {
  if (map.size >= REMEMBERED) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** The digits a value spells as a number, or '' when it spells none. */
function digitsOf(value: string): string {
  return spelledDigits(value.trim()).digits ?? '';
}

/** The redaction key, checked: a string of at least 16 characters, or none. */
function checkedKey(key: unknown): string | undefined {
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || key.length < 16)
    throw new InvalidArgumentError(
      'The redaction key must be a string of at least 16 characters (a secret: with it, the numbers of a recording can be found again by trying every number).',
    );
  return key;
}

/** `text` with each of `secrets` replaced. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) if (secret !== '' && clean.includes(secret)) clean = clean.replaceAll(secret, REDACTED);
  return clean;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
