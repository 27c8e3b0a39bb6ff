// What a recording must not hold, replaced: phone numbers and e-mail addresses by placeholders derived
// by HMAC-SHA256 under the redaction key (one number, one placeholder, in any spelling; one address,
// one placeholder, in any case), webhook secrets and the API key by "<redacted>". The replay redacts
// the requests it gets alike, and maps placeholders back.
import { createHmac, randomBytes } from 'node:crypto';
import { setImmediate } from 'node:timers';
import { InvalidArgumentError } from '../../../shared/errors.js';
import { PHONE_DIGITS, spelledDigits } from '../../../shared/phone.js';

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
/**
 * The fields that hold a phone number (at any depth of a body, by name): `to`, `from`, `tel`, and any
 * name with phone, mobile, msisdn, wa_id or recipient in it.
 */
const PHONE_FIELD = /^(to|from|tel|fax)$|phone|mobile|msisdn|wa_?id|recipient|(^|_)tel$/i;
/** The fields that hold an e-mail address (at any depth of a body, by name): `email`, `owner_email`, `e_mail`… */
const EMAIL_FIELD = /e_?-?mail/i;
/** An address's placeholder: a local part from the HMAC, at a domain reserved to reach no one (RFC 2606). */
const EMAIL_PLACEHOLDER = /^redacted-[0-9a-f]{12}@example\.invalid$/;
/** Anywhere in a text: an address's placeholder. */
const EMAIL_PLACEHOLDERS = /redacted-[0-9a-f]{12}@example\.invalid/g;
/** The query parameters that may hold a number, a part of one included (a search). */
const PHONE_QUERY: ReadonlySet<string> = new Set(['search', 'to', 'from', 'phone']);
/**
 * What names a credential: a webhook's `secret`, `signing_secret`, `client_secret`; `password`;
 * `token`, `access_token`; `api_key`, `apikey`, `signing_key`, `access_key`, `private_key`;
 * `authorization`, `bearer`, `credential(s)`.
 */
const CREDENTIAL_WORDS =
  'secret|passw(?:or)?d|token|api_?-?key|(?:signing|access|private)_?-?key|authori[sz]ation|bearer|credential';
/** The fields (and query parameters) that hold a credential, by name. */
const SECRET_FIELD = new RegExp(CREDENTIAL_WORDS, 'i');
/** A credential written into a text: `"access_token": "…"`, `password=…`, `api_key: …` (JSON, a form, a log line). */
// Names start a word and are short (bounded, so that a text of one long word costs no more than a pass).
const CREDENTIAL_IN_TEXT = new RegExp(
  `(["']?)(?<![\\w-])([\\w-]{0,40}?(?:${CREDENTIAL_WORDS})[\\w-]{0,40})\\1(\\s*[:=]\\s*)("(?:[^"\\\\]|\\\\.)*"|'[^']*'|[^\\s"'&,;}<]+)`,
  'gi',
);
/** An e-mail address inside a text, its `@` written as it is or percent-encoded (`%40`: a form, a URL). */
const EMAIL_IN_TEXT = /(?<![A-Za-z0-9._+-])[A-Za-z0-9._+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/gi;
/** A value that is digits alone, in a field that holds no phone number: an id, a count, an epoch time in a string. */
const DIGITS_ALONE = /^\d+$/;
/** Values that are keys or secrets wherever they appear: a webhook secret (`whsec_…`), an API key (`sk_…`, `rk_…`). */
const KEY_LIKE = /(?<![A-Za-z0-9])(?:whsec|sk|rk)_[A-Za-z0-9_-]{6,}/g;
/**
 * A number inside a text: a spelling with its international prefix (`+49 (151) 2345-6789`,
 * `(+49) 176…`, `0049…`, `tel:+49…`, `%2B49…` in a form, after a form's `+` for a space), or a
 * run of bare digits; kept when it is part of a word, a
 * date (`2026-11-26`), a decimal or an id (`…-446655440000`). Replaced when it has 8 to 15 digits.
 */
const NUMBER_IN_TEXT = /(?<![\w\-.])(?:tel:)?(?:\(?(?:\+|00|%2B)\d[\d \-./()]*\d|\d{8,15})(?![\w+]|[-.]\d)/gi;
/** The fields whose digits are a time (`created_at`, `timestamp`), kept. */
const TIME_FIELD = /time|date|_at$/i;
/** Fewer digits than this are no number worth hiding (a search for "12"). */
const MIN_DIGITS = 4;
/** How many digits a number inside a text or path has (E.164 allows at most 15). */
const { min: TEXT_DIGITS, max: MAX_DIGITS } = PHONE_DIGITS;
/** A form-encoded body: `name=value` pairs joined by `&`, nothing else. */
const FORM = /^[\w.%+*-]+=[^&=\s]*(?:&[\w.%+*-]+=[^&=\s]*)*$/;
/** How many numbers a replay remembers to map back. */
const REMEMBERED = 10_000;

/** Redacts the values of one proxy or replay under one key. */
export class Redactor {
  readonly #key: Buffer;
  /** Each placeholder's digits and the digits of the number it stands for, as the app sent them (a replay maps them back). */
  readonly #numbers = new Map<string, string>();
  /** Each address placeholder and the address it stands for, as the app sent it. */
  readonly #addresses = new Map<string, string>();

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
    return placeholder;
  }

  /** The placeholder of an e-mail address (whatever its case): itself when it is one. */
  email(address: string): string {
    if (EMAIL_PLACEHOLDER.test(address)) return address;
    const hash = createHmac('sha256', this.#key).update(`email:${address.trim().toLowerCase()}`).digest('hex');
    const placeholder = `redacted-${hash.slice(0, 12)}@example.invalid`;
    remember(this.#addresses, placeholder, address);
    return placeholder;
  }

  /**
   * A value of a phone field with its number replaced by the placeholder, spelled alike (`tel:` and
   * a `+` kept, bare digits bare; a JSON number of a phone number's length a number); a value that
   * spells no number (a name searched for) with the numbers inside it replaced as in any text.
   */
  phone(value: unknown, secrets: readonly string[] = []): unknown {
    if (typeof value === 'number')
      return Number.isSafeInteger(value) && value > 0 && String(value).length >= TEXT_DIGITS
        ? Number(this.placeholder(String(value)))
        : value;
    if (typeof value !== 'string') return value;
    const tel = /^\s*tel:/i.exec(value)?.[0] ?? '';
    const digits = digitsOf(value.slice(tel.length));
    if (digits.length < MIN_DIGITS) return this.text(value, secrets);
    const placeholder = this.placeholder(digits);
    return `${tel === '' ? '' : 'tel:'}${/^\s*\(?\s*(\+|00)/.test(value.slice(tel.length)) ? '+' : ''}${placeholder}`;
  }

  /**
   * A text with each number of 8 to 15 digits in it replaced by its placeholder (spelled as
   * `phone` does), each e-mail address by its placeholder, and each key-like value and each of
   * `secrets` replaced: a body that is not JSON (text, HTML), and every text of one that is.
   */
  text(text: string, secrets: readonly string[]): string {
    return this.#contacts(withoutCredentials(text, secrets));
  }

  /**
   * `text` as `text()` gives it, worked through in slices that yield to the event loop between
   * them: a body of megabytes (a hash for each of its numbers) never holds up other requests.
   */
  async textInSlices(text: string, secrets: readonly string[], slicer = new Slicer()): Promise<string> {
    const clean = withoutCredentials(text, secrets);
    if (clean.length <= SLICE_CHARS) return this.#contacts(clean);
    let redacted = '';
    for (const part of slices(clean)) {
      redacted += this.#contacts(part);
      await slicer.tick();
    }
    return redacted;
  }

  /** `text` with its e-mail addresses and its numbers of 8 to 15 digits replaced by their placeholders. */
  #contacts(text: string): string {
    const addressed = /@|%40/i.test(text)
      ? text.replace(EMAIL_IN_TEXT, (address) => this.email(address.replace(/%40/i, '@')))
      : text;
    return addressed.replace(NUMBER_IN_TEXT, (written) => {
      const spelled = written.replace(/^%2B/i, '+');
      const count = digitsOf(spelled.replace(/^tel:/i, '')).length;
      if (count >= TEXT_DIGITS && count <= MAX_DIGITS) return String(this.phone(spelled));
      // Two numbers in a row read as one too long: each run of digits that could be one on its own.
      return count > MAX_DIGITS
        ? spelled.replace(/(?<!\d)\d{8,15}(?!\d)/g, (digits) => this.placeholder(digits))
        : written;
    });
  }

  /**
   * A JSON body with every secret field, key-like value and each of `secrets` (the API key,
   * wherever it appears) replaced, the number of every phone field replaced, and every number of 8
   * to 15 digits in any other text replaced (an error message that names one). Message text (`content`
   * at any depth, the `message` beside a `to`: Variant 1's) keeps its numbers; times, and values
   * that are digits alone (an id, an epoch time, a count), keep their digits. Worked through in
   * slices that yield to the event loop, as `textInSlices`.
   */
  async body(value: unknown, secrets: readonly string[]): Promise<unknown> {
    const slicer = new Slicer();
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return this.#walk(value, undefined, secrets, slicer);
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      copy[key] =
        key === 'message' && 'to' in value
          ? withoutSecretValues(item, secrets)
          : await this.#walk(item, key, secrets, slicer);
    return copy;
  }

  /**
   * A form-encoded body (`a=1&b=2`) redacted as a query is, written back in the same form; undefined
   * when `text` is not one.
   */
  form(text: string, secrets: readonly string[]): string | undefined {
    if (!FORM.test(text)) return undefined;
    const redacted = new URLSearchParams();
    for (const [name, value] of Object.entries(this.query(new URLSearchParams(text), secrets)))
      for (const one of Array.isArray(value) ? value : [value]) redacted.append(name, one);
    return redacted.toString();
  }

  /** A query with its numbers (any part of one in a phone parameter), key-like values and `secrets` replaced. */
  query(params: URLSearchParams, secrets: readonly string[]): Record<string, string | string[]> {
    const query: Record<string, string | string[]> = {};
    for (const [name, raw] of params) {
      const value = String(this.#field(raw, PHONE_QUERY.has(name) ? 'phone' : name, secrets));
      const seen = query[name];
      query[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
    }
    return query;
  }

  /**
   * A path with key-like values and `secrets` replaced, any segment that spells a number of 8 to
   * 15 digits (`4915112345678`, `+49…`, `tel:+49…`) replaced as a phone field's, and any e-mail
   * address by its placeholder (so a file named after the path holds neither).
   */
  path(path: string, secrets: readonly string[]): string {
    return path
      .split('/')
      .map((segment) => {
        const decoded = safeDecode(segment);
        if (decoded.includes('@')) {
          const redacted = this.text(decoded, secrets);
          return redacted === decoded ? segment : encodeURIComponent(redacted);
        }
        const count = digitsOf(decoded.replace(/^tel:/i, '')).length;
        const redacted =
          count >= TEXT_DIGITS && count <= MAX_DIGITS ? String(this.phone(decoded)) : this.text(decoded, secrets);
        return redacted === decoded ? segment : encodeURIComponent(redacted);
      })
      .join('/');
  }

  /**
   * `text` (JSON) with each placeholder this redactor made for a number or an address the app sent
   * replaced by that number's digits or that address (escaped as inside a JSON string).
   */
  mapBack(text: string): string {
    return text
      .replace(PLACEHOLDERS, (placeholder) => this.#numbers.get(placeholder) ?? placeholder)
      .replace(EMAIL_PLACEHOLDERS, (placeholder) => {
        const address = this.#addresses.get(placeholder);
        return address === undefined ? placeholder : JSON.stringify(address).slice(1, -1);
      });
  }

  async #walk(value: unknown, field: string | undefined, secrets: readonly string[], slicer: Slicer): Promise<unknown> {
    await slicer.tick();
    if (typeof value === 'string' && value.length > SLICE_CHARS && this.#isText(field, value))
      return this.textInSlices(value, secrets, slicer);
    if (typeof value !== 'object' || value === null || field === 'content') return this.#field(value, field, secrets);
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      for (const item of value) items.push(await this.#walk(item, field, secrets, slicer));
      return items;
    }
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = await this.#walk(item, key, secrets, slicer);
    return copy;
  }

  /** A value of `field` that is no object to walk into (or message text): redacted as its field says. */
  #field(value: unknown, field: string | undefined, secrets: readonly string[]): unknown {
    if (field === 'content') return withoutSecretValues(value, secrets);
    if (field !== undefined && SECRET_FIELD.test(field) && typeof value === 'string') return REDACTED;
    if (field !== undefined && PHONE_FIELD.test(field) && typeof value !== 'object') return this.phone(value, secrets);
    if (field !== undefined && EMAIL_FIELD.test(field) && typeof value === 'string' && value.includes('@'))
      return this.email(value);
    if (typeof value !== 'string') return value;
    return this.#isText(field, value) ? this.text(value, secrets) : withoutSecrets(value, secrets);
  }

  /**
   * Whether a string of `field` is text whose numbers and addresses are redacted: not a field of
   * message text, a secret, a phone, an e-mail address or a time, and not digits alone (an id, an
   * epoch time in a string, a count: kept byte for byte).
   */
  #isText(field: string | undefined, value: string): boolean {
    if (DIGITS_ALONE.test(value)) return false;
    return (
      field === undefined ||
      !(
        field === 'content' ||
        SECRET_FIELD.test(field) ||
        PHONE_FIELD.test(field) ||
        EMAIL_FIELD.test(field) ||
        TIME_FIELD.test(field)
      )
    );
  }
}

/** How long redaction runs before it lets the event loop serve others (ms). */
const SLICE_MS = 8;
/** About how long a slice of a text is: cut at the first delimiter past it. */
const SLICE_CHARS = 16_384;
/**
 * Where a text may be cut, just after: a character no number, address or key holds, or a space
 * before a letter or a `+`, neither of which a number goes on with (a spelled number goes on over
 * spaces, dashes, dots, slashes and brackets, so no cut falls there).
 */
const DELIMITER = /[,;"<>\n\r\t]| (?=[A-Za-z+])/g;

/** Yields to the event loop once work has run SLICE_MS since it last did. */
class Slicer {
  #since = performance.now();

  async tick(): Promise<void> {
    if (performance.now() - this.#since < SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.#since = performance.now();
  }
}

/** `text` cut into slices of about SLICE_CHARS, each ending just after a delimiter (or at the end). */
function* slices(text: string): Generator<string> {
  let from = 0;
  while (from < text.length) {
    DELIMITER.lastIndex = from + SLICE_CHARS;
    const cut = DELIMITER.exec(text);
    const to = cut === null ? text.length : cut.index + 1;
    yield text.slice(from, to);
    from = to;
  }
}

/**
 * A JSON value with only its secrets replaced: every secret field, key-like value and each of
 * `secrets`. What message text keeps, and what the live journal of a proxy or replay shows.
 */
export function withoutSecretValues(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return withoutSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((item) => withoutSecretValues(item, secrets));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      SECRET_FIELD.test(key) && typeof item === 'string' ? REDACTED : withoutSecretValues(item, secrets),
    ]),
  );
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

/**
 * `text` with each key-like value, each of `secrets` and each credential written into it by name
 * (`"access_token": "…"`, `password=…`) replaced: how a text (a body that is not JSON, a message
 * of an answer) is cleaned before its numbers and addresses are.
 */
export function withoutCredentials(text: string, secrets: readonly string[]): string {
  return withoutSecrets(text, secrets).replace(
    CREDENTIAL_IN_TEXT,
    (_, quote: string, name: string, separator: string, value: string) =>
      `${quote}${name}${quote}${separator}${value.startsWith('"') ? `"${REDACTED}"` : REDACTED}`,
  );
}

/** `text` with each key-like value and each of `secrets` replaced. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  let clean = text.replace(KEY_LIKE, REDACTED);
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
