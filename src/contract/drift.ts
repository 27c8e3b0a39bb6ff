// The drift check: how a JSON value differs from the shape bizmsg expects (shape.ts, read from a zod
// schema), as dotted paths and JSON type names, never a value. One small walk serves the clients
// (what they read), the webhook receivers (what they were sent) and the mock's proxy. It runs on
// every answer a client reads, so it stays small: figure 1 counts its bytes. It imports no zod, so
// that a receiver carries none (figure 1).
import { readEpoch } from '../shared/timestamp.js';

/** A JSON type name as the drift check reports it; `integer` is a whole `number`. */
export type JsonTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';

/**
 * How present a field is: `required` (reported missing, read in its type where nothing is lost),
 * `expected` (optional, but reported missing: bizmsg's guess, `expected()`), `needed` (optional
 * and not reported, but read in its type like a required one: `needed()`), `optional`.
 */
export type Presence = 'required' | 'expected' | 'needed' | 'optional';

/**
 * What the drift check knows of one place in a body: plain data, read from a zod schema
 * (shape.ts) or written out from one (event-shapes.ts, so that a receiver carries no zod).
 */
export interface Shape {
  /** The JSON types it takes; left out: any value. */
  readonly types?: readonly JsonTypeName[];
  /** An object's fields by name: each one's shape and presence. An object of none holds free-form pairs. */
  readonly fields?: Readonly<Record<string, readonly [shape: Shape, presence: Presence]>>;
  /** An array's items. */
  readonly items?: Shape;
  /** A record's values. */
  readonly values?: Shape;
  /** A union's options, tried in order: the first of the value's JSON type, or the one its `tag` names. */
  readonly options?: readonly Shape[];
  /** A discriminated union's key, and each option's values of it, in the order of `options`. */
  readonly tag?: readonly [key: string, values: ReadonlyArray<readonly unknown[]>];
}

/** A field whose JSON type is not the one expected: `{ path: 'data.tags', expected: 'array', received: 'string' }`. */
export interface Mismatch {
  /** Dotted path from the body's root; array items as `[]` (`data[].tags`). */
  readonly path: string;
  /** The JSON type names accepted there, joined by ` | ` (`string`, `number`, `integer`, `boolean`, `object`, `array`, `null`). */
  readonly expected: string;
  /** The JSON type name of what came (`string`, `number`, `boolean`, `object`, `array` or `null`). */
  readonly received: string;
}

/** How a value differs from its expected shape: paths and type names only, never a value. */
export interface ShapeDrift {
  /** Fields expected every time (required, or `expected()` guesses) that are absent. */
  readonly missing: string[];
  /** Fields the shape does not know (the top one of each unknown part; a key that is no field name shows as `*`). */
  readonly unexpected: string[];
  /** Fields present with another JSON type than expected. */
  readonly mismatched: Mismatch[];
}

/** A value compared with its shape, and the value as a tolerant reader keeps it. */
export interface ShapeReading extends ShapeDrift {
  /**
   * The value with the known shapes read as bizmsg's (an epoch time as ISO 8601, a wrapped list as
   * its items, tags as their names), every other optional field of another type left out, and each
   * required one of another type given in the expected type where nothing is lost (a number as
   * text, a numeric text as the number), copied where it changed (the same value when nothing
   * changed): what the clients parse.
   */
  readonly value: unknown;
  /** False when a required part is missing or of another type: the reader cannot give what it promises. */
  readonly fits: boolean;
}

/** The longest list a report holds: a body of 10,000 unknown keys still gives a short report. */
const MAX_FINDINGS = 100;
/**
 * A key shown as it is: a field name (letters, digits and `_`, at most 64, no run of four digits,
 * not shaped like a secret: no `sk_`, `pk_`, `rk_` or `whsec_` prefix, no part of 12 or more
 * letters and digits that holds a digit). Anything else (a number, a phone, an e-mail, an id, a
 * key, a text) shows as `*`: a value used as a key.
 */
const FIELD_NAME =
  /^(?!.*\d{4})(?!(?:sk|pk|rk|whsec)_)(?!.*(?<![A-Za-z0-9])(?=[A-Za-z]*\d)[A-Za-z0-9]{12,})[A-Za-z_]\w{0,63}$/i;

/**
 * Compares `value` (found at `root` in the body: `'data'`, `'meta'`, or `''` for the body itself)
 * with `schema` at the level of JSON types and fields: what is missing, what is unknown, what has
 * another type. Values are never compared (a string where a string is expected fits, whatever it
 * says: enum values, formats and patterns are not checked) and never reported. The shapes real
 * services are known to send where bizmsg guessed another are read as bizmsg's and reported as
 * mismatched: a time field (`*_at`, `timestamp`) as epoch seconds or milliseconds (a number, or
 * digits in a string) is read as its ISO 8601 text, a list wrapped in an object (`{ object: 'list',
 * data }`, `{ data }`, `{ items }`) as its items, a list of names (`tags`) of objects as their `name`s.
 *
 * @example
 * ```text
 * compareShape(ContactSchema, { id: 1, phone: '4915112345678', tags: 'a,b', vip: true }, 'data');
 * // { missing: ['data.created_at', 'data.updated_at'], unexpected: ['data.vip'],
 * //   mismatched: [{ path: 'data.tags', expected: 'array', received: 'string' }],
 * //   value: { id: 1, phone: '4915112345678', vip: true }, fits: true }
 * ```
 */
export function compareShape(shape: Shape, value: unknown, root = ''): ShapeReading {
  const missing = new Set<string>();
  const unexpected = new Set<string>();
  const mismatched = new Map<string, Mismatch>();

  /** Compares one value with its schema: what is kept of it, or NO_FIT when it (or a required part of it) does not fit. */
  const walk = (shape: Shape, value: unknown, path: string, required: boolean, time = false): unknown => {
    const names = shape.types;
    // The shapes real services are known to send where bizmsg guessed another, read as bizmsg's
    // own and reported: a time as epoch seconds or milliseconds, a list wrapped in an object.
    if (time && names?.includes('string') === true) {
      const iso = epochAsIso(value);
      if (iso !== undefined) {
        mismatched.set(path, {
          path,
          ...(typeof value === 'string' ? EPOCH_TEXT : { expected: names.join(' | '), received: 'number' }),
        });
        return iso;
      }
    }
    if (names?.includes('array') === true && !names.includes('object')) {
      const items = listIn(value);
      if (items !== undefined) {
        mismatched.set(path, { path, expected: 'array', received: 'object' });
        value = items;
      }
    }
    if (!fits(names, value)) {
      mismatched.set(path, { path, expected: names!.join(' | '), received: jsonType(value) });
      // A required field is given in the expected type where nothing is lost, so the call can go on.
      return required ? converted(names!, value) : NO_FIT;
    }
    if (typeof value !== 'object' || value === null) return value;
    if (shape.options !== undefined) {
      const option = optionOf(shape, value as Record<string, unknown>);
      return option === undefined ? value : walk(option, value, path, required);
    }
    let ok = true;
    // A copy of the value, made once something in it is left out or changed.
    let kept: Record<string, unknown> | undefined;
    if (shape.items !== undefined && Array.isArray(value)) {
      const items = value as unknown[];
      const at = `${path}[]`;
      const named = namesOnly(shape.items);
      for (let index = 0; index < items.length; index++) {
        const item = named ? nameOf(items[index]) : undefined;
        if (item !== undefined) mismatched.set(at, { path: at, expected: 'string', received: 'object' });
        const keep = item ?? walk(shape.items, items[index], at, required);
        if (keep === NO_FIT) ok = false;
        else if (keep !== items[index]) (kept ??= [...items] as unknown as Record<string, unknown>)[index] = keep;
      }
    } else if (shape.values !== undefined) {
      for (const [key, item] of Object.entries(value))
        if (walk(shape.values, item, pathOf(path, key), required) === NO_FIT) ok = false;
    } else if (shape.fields !== undefined) {
      const object = value as Record<string, unknown>;
      const fields = fieldsOf(shape.fields);
      for (const [key, field, presence] of fields) {
        const at = path === '' ? key : `${path}.${key}`;
        const optional = presence !== 'required';
        if (!Object.hasOwn(object, key)) {
          if (presence === 'required' || presence === 'expected') missing.add(at);
          ok &&= optional;
          continue;
        }
        const keep = walk(field, object[key], at, !optional || presence === 'needed', TIME_FIELD.test(key));
        if (keep === NO_FIT && optional) delete (kept ??= { ...object })[key];
        else if (keep === NO_FIT) ok = false;
        else if (keep !== object[key]) (kept ??= { ...object })[key] = keep;
      }
      // A loose object keeps a field it does not know, and a strict one (a request body) refuses it:
      // both are reported. One of no fields holds free-form pairs (PairsSchema): its keys are data.
      for (const key of Object.keys(object))
        if (fields.length > 0 && !Object.hasOwn(shape.fields, key)) unexpected.add(pathOf(path, key));
    }
    return ok ? (kept ?? value) : NO_FIT;
  };

  const kept = walk(shape, value, root, true);
  const first = <T>(items: Set<T> | Map<unknown, T>) =>
    items.size === 0 ? [] : [...items.values()].slice(0, MAX_FINDINGS);
  return {
    missing: first(missing),
    unexpected: first(unexpected),
    mismatched: first(mismatched),
    value: kept === NO_FIT ? value : kept,
    fits: kept !== NO_FIT,
  };
}

/** A field that holds a time, by its name (`created_at`, `timestamp`): read from epoch seconds or milliseconds too. */
const TIME_FIELD = /(?:_at|^timestamp)$/;

/** How a time sent as a string of digits is reported: of the right JSON type, but not the ISO 8601 text bizmsg reads. */
const EPOCH_TEXT = { expected: 'string (ISO 8601)', received: 'string (epoch)' } as const;

/**
 * A time sent as seconds or milliseconds since the epoch (a number, or a string of digits, as
 * WhatsApp Cloud API sends them), as the ISO 8601 text bizmsg reads; undefined for anything else
 * (an ISO text, which fits, or a value that is no time, which is reported as it is).
 */
function epochAsIso(value: unknown): string | undefined {
  if (typeof value !== 'number' && !(typeof value === 'string' && /^\d{9,13}$/.test(value))) return undefined;
  const ms = readEpoch(value);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

/**
 * The items of a list that came wrapped in an object, where a bare array was guessed: `{ object:
 * 'list', data: [...] }` (Stripe, Intercom), `{ data: [...] }`, `{ items: [...] }`; else undefined.
 */
function listIn(value: unknown): unknown[] | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { data, items } = value as { data?: unknown; items?: unknown };
  return Array.isArray(data) ? data : Array.isArray(items) ? items : undefined;
}

/** True for a list of strings only (`tags`), whose items may come as objects that carry their `name`. */
function namesOnly(items: Shape): boolean {
  return items.types?.length === 1 && items.types[0] === 'string';
}

/** The `name` of an item sent as an object (`{ id: 7, name: 'vip' }`) where a string was expected. */
function nameOf(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { name } = item as { name?: unknown };
  return typeof name === 'string' ? name : undefined;
}

/** What `walk` gives for a value that does not fit its schema. */
const NO_FIT = Symbol('no fit');

/** Each field of an object's shape: its name, shape and presence (cached). */
const FIELDS = new WeakMap<object, Array<[string, Shape, Presence]>>();
function fieldsOf(fields: NonNullable<Shape['fields']>): Array<[string, Shape, Presence]> {
  let list = FIELDS.get(fields);
  if (list === undefined)
    FIELDS.set(fields, (list = Object.entries(fields).map(([key, [field, presence]]) => [key, field, presence])));
  return list;
}

/** True when a drift has nothing in it. */
export function isEmptyDrift(drift: ShapeDrift): boolean {
  return drift.missing.length + drift.unexpected.length + drift.mismatched.length === 0;
}

/** The JSON type name of a value: `string`, `number`, `boolean`, `object`, `array` or `null`. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/** `path.key` (`key` at the root), the key shown only when it is a field name: else `*`. */
export function pathOf(path: string, key: string): string {
  const name = FIELD_NAME.test(key) ? key : '*';
  return path === '' ? name : `${path}.${name}`;
}

/** Whether `value` is of one of the JSON types of `names` (any, without names). */
function fits(names: readonly string[] | undefined, value: unknown): boolean {
  const type = jsonType(value);
  return !names || names.includes(type) || (type === 'number' && names.includes('integer') && Number.isInteger(value));
}

/** A whole number or decimal written as text, as a service that quotes its numbers sends it (`"2"`, `"-1.5"`). */
const NUMERIC_TEXT = /^-?\d{1,15}(\.\d{1,15})?$/;

/**
 * A required value of another JSON type given in the one expected, where nothing is lost: a number
 * or a boolean as text (an id `77` as `"77"`), a number written as text as the number; else NO_FIT.
 */
function converted(names: readonly string[], value: unknown): unknown {
  if (names.includes('string') && (typeof value === 'number' || typeof value === 'boolean')) return String(value);
  if (typeof value !== 'string' || !NUMERIC_TEXT.test(value)) return NO_FIT;
  const number = Number(value);
  if (names.includes('number') || (names.includes('integer') && Number.isInteger(number))) return number;
  return NO_FIT;
}

/** The option of a union an object belongs to: by its tag in a discriminated union, else the first of its JSON type. */
function optionOf({ options, tag }: Shape, value: Record<string, unknown>): Shape | undefined {
  return options!.find((option, index) =>
    tag === undefined ? fits(option.types, value) : tag[1][index]!.includes(value[tag[0]]),
  );
}
