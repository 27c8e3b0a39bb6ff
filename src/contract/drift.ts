// The drift check: how a JSON value differs from the shape bizmsg expects (a zod schema and the
// contract's field marks), as dotted paths and JSON type names, never a value. One walk serves the
// clients (what they read), the webhook receivers (what they were sent) and the mock's proxy.
import type { ZodMiniType } from 'zod/mini';
import { isRecord } from '../shared/guards.js';
import { isAlways, type FieldMarks } from './fields.js';

/** A field whose JSON type is not the one expected: `{ path: 'data.tags', expected: 'array', received: 'string' }`. */
export interface Mismatch {
  /** Dotted path from the body's root; array items as `[]` (`data[].tags`). */
  readonly path: string;
  /** The JSON type names accepted there, joined by ` | ` (`string`, `number`, `integer`, `boolean`, `object`, `array`, `null`). */
  readonly expected: string;
  /** The JSON type name of what came (`integer` is reported as `number`). */
  readonly received: string;
}

/** How a value differs from its expected shape: paths and type names only, never a value. */
export interface ShapeDrift {
  /** Fields expected always (required, or marked as always sent) that are absent. */
  readonly missing: string[];
  /** Fields the shape does not know (the top one of each unknown part; a key that is no field name shows as `*`). */
  readonly unexpected: string[];
  /** Fields present with another JSON type than expected. */
  readonly mismatched: Mismatch[];
}

/** A value compared with its shape, and the value as a tolerant reader keeps it. */
export interface ShapeReading extends ShapeDrift {
  /**
   * The value with every optional field that is of another type left out (copied where it
   * changed; the same value when nothing was left out). What the clients parse.
   */
  readonly value: unknown;
  /** False when a required part is missing or of another type: the reader cannot give what it promises. */
  readonly fits: boolean;
}

/** Options of `compareShape`. */
export interface CompareOptions {
  /** Path of `value` in the body (`'data'` for an enveloped payload); default the root (`''`). */
  readonly root?: string;
  /** Which optional fields are expected always (`'guessed'`): `RECORD_MARKS`, `EVENT_MARKS`; none by default. */
  readonly marks?: FieldMarks;
}

/** The longest list a report holds: a body of 10,000 unknown keys still gives a short report. */
const MAX_FINDINGS = 100;
/** A key shown as it is: a field name. Anything else (a number, a phone, an e-mail, a long text) shows as `*`. */
const FIELD_NAME = /^[A-Za-z_][\w-]{0,63}$/;

/**
 * Compares `value` with `schema` at the level of JSON types and fields: what is missing, what is
 * unknown, what has another type. Values are never compared (a string where a string is expected
 * fits, whatever it says) and never reported.
 *
 * @example
 * ```ts
 * compareShape(ContactSchema, { id: 1, phone: '4915112345678', tags: 'a,b', vip: true }, { root: 'data' });
 * // { missing: [], unexpected: ['data.vip'], mismatched: [{ path: 'data.tags', expected: 'array', received: 'string' }],
 * //   value: { id: 1, phone: '4915112345678', vip: true }, fits: true }
 * ```
 */
export function compareShape(schema: ZodMiniType, value: unknown, options: CompareOptions = {}): ShapeReading {
  const walk = new Walk(options.marks);
  const { fits, value: kept } = walk.node(schema, value, options.root ?? '');
  return { ...walk.drift(), value: kept, fits };
}

/** True when a drift has nothing in it. */
export function isEmptyDrift(drift: ShapeDrift): boolean {
  return drift.missing.length + drift.unexpected.length + drift.mismatched.length === 0;
}

/** The JSON type name of a value: `string`, `number`, `boolean`, `object`, `array` or `null`. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** The internals of a zod schema the walk reads. */
interface Def {
  readonly type: string;
  readonly format?: string;
  readonly innerType?: ZodMiniType;
  readonly in?: ZodMiniType;
  readonly shape?: Record<string, ZodMiniType>;
  readonly catchall?: ZodMiniType;
  readonly element?: ZodMiniType;
  readonly valueType?: ZodMiniType;
  readonly options?: readonly ZodMiniType[];
  readonly discriminator?: string;
  readonly values?: readonly unknown[];
}

const defOf = (schema: ZodMiniType) => schema._zod.def as unknown as Def;
const isOptional = (schema: ZodMiniType) => schema._zod.optin === 'optional';
/** Wrappers that change neither the JSON type nor the fields (`nullable` adds `null`). */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

/** The JSON type names a schema accepts; undefined for any. */
function accepted(schema: ZodMiniType, into = new Set<string>()): Set<string> | undefined {
  const def = defOf(schema);
  const { type } = def;
  if (WRAPPERS.has(type)) {
    const inner = accepted(def.innerType!, into);
    return type === 'nullable' ? inner?.add('null') : inner;
  }
  if (type === 'pipe') return accepted(def.in!, into);
  if (type === 'union') {
    for (const option of def.options!) if (accepted(option, into) === undefined) return undefined;
    return into;
  }
  const name = JSON_NAMES[type] ?? (type === 'literal' ? jsonType(def.values![0]) : undefined);
  if (name === undefined) return undefined;
  return into.add(name === 'number' && def.format?.includes('int') === true ? 'integer' : name);
}

/** The JSON type of each kind of zod schema that has one; the others (unknown, transform...) take anything. */
const JSON_NAMES: Readonly<Record<string, string>> = {
  string: 'string',
  enum: 'string',
  number: 'number',
  boolean: 'boolean',
  null: 'null',
  object: 'object',
  record: 'object',
  array: 'array',
};

/** Whether `value` is of one of the JSON types of `names`. */
function fitsType(names: Set<string>, value: unknown): boolean {
  const type = jsonType(value);
  return names.has(type) || (type === 'number' && names.has('integer') && Number.isInteger(value));
}

/** One comparison: its findings, each path once, at most MAX_FINDINGS of each kind. */
class Walk {
  readonly #missing = new Set<string>();
  readonly #unexpected = new Set<string>();
  readonly #mismatched = new Map<string, Mismatch>();
  readonly #marks: FieldMarks | undefined;

  constructor(marks: FieldMarks | undefined) {
    this.#marks = marks;
  }

  drift(): ShapeDrift {
    return {
      missing: [...this.#missing],
      unexpected: [...this.#unexpected],
      mismatched: [...this.#mismatched.values()],
    };
  }

  /** Compares one value with its schema; `fits` false when it (or a required part of it) does not fit. */
  node(schema: ZodMiniType, value: unknown, path: string): { fits: boolean; value: unknown } {
    const names = accepted(schema);
    if (names !== undefined && !fitsType(names, value)) {
      if (this.#mismatched.size < MAX_FINDINGS && !this.#mismatched.has(path))
        this.#mismatched.set(path, { path, expected: [...names].join(' | '), received: jsonType(value) });
      return { fits: false, value };
    }
    const def = defOf(schema);
    if (value === null || typeof value !== 'object') return { fits: true, value };
    if (WRAPPERS.has(def.type)) return this.node(def.innerType!, value, path);
    switch (def.type) {
      case 'pipe':
        return this.node(def.in!, value, path);
      case 'object':
        return this.#object(schema, def, value as Record<string, unknown>, path);
      case 'array':
        return this.#items(def.element!, value as unknown[], `${path}[]`);
      case 'record':
        return this.#values(def.valueType!, value as Record<string, unknown>, path);
      case 'union':
        return this.#union(def, value, path);
      default:
        return { fits: true, value };
    }
  }

  #object(schema: ZodMiniType, def: Def, value: Record<string, unknown>, path: string) {
    const shape = def.shape!;
    const marks = this.#marks?.get(schema);
    let fits = true;
    let kept: Record<string, unknown> | undefined;
    for (const key of Object.keys(shape)) {
      const field = shape[key]!;
      const at = join(path, key);
      const optional = isOptional(field);
      if (!Object.hasOwn(value, key)) {
        if (!optional || isAlways(marks?.[key])) addPath(this.#missing, at);
        fits &&= optional;
        continue;
      }
      const child = this.node(field, value[key], at);
      if (!child.fits && optional) {
        kept ??= { ...value };
        delete kept[key];
      } else if (!child.fits) fits = false;
      else if (child.value !== value[key]) (kept ??= { ...value })[key] = child.value;
    }
    // A strict object (a request body) knows no other key either; a loose one keeps them, reported.
    for (const key of Object.keys(value)) if (!Object.hasOwn(shape, key)) addPath(this.#unexpected, join(path, key));
    return { fits, value: kept ?? value };
  }

  #items(element: ZodMiniType, items: unknown[], path: string) {
    let fits = true;
    let kept: unknown[] | undefined;
    items.forEach((item, index) => {
      const child = this.node(element, item, path);
      fits &&= child.fits;
      if (child.value !== item) (kept ??= [...items])[index] = child.value;
    });
    return { fits, value: kept ?? items };
  }

  #values(valueType: ZodMiniType, record: Record<string, unknown>, path: string) {
    let fits = true;
    for (const [key, item] of Object.entries(record)) fits &&= this.node(valueType, item, join(path, key)).fits;
    return { fits, value: record };
  }

  /** The option the value belongs to: by its discriminator when the union has one, else the one it fits best. */
  #union(def: Def, value: unknown, path: string) {
    const options = def.options!.filter((option) => {
      const names = accepted(option);
      return names === undefined || fitsType(names, value);
    });
    const { discriminator } = def;
    const tag = discriminator === undefined || !isRecord(value) ? undefined : value[discriminator];
    const chosen =
      options.find((option) => option._zod.propValues?.[discriminator!]?.has(tag as never) === true) ??
      bestOf(options, (option) => new Walk(this.#marks).tried(option, value, path));
    return chosen === undefined ? { fits: true, value } : this.node(chosen, value, path);
  }

  /** How badly `value` fits `schema`: 0 for a fit without findings. */
  tried(schema: ZodMiniType, value: unknown, path: string): number {
    const { fits } = this.node(schema, value, path);
    const { missing, unexpected, mismatched } = this.drift();
    return (fits ? 0 : 1000) + missing.length + unexpected.length + mismatched.length;
  }
}

/** The item with the lowest score (the first of equals); undefined for none. */
function bestOf<T>(items: readonly T[], score: (item: T) => number): T | undefined {
  let best: T | undefined;
  let lowest = Infinity;
  for (const item of items) {
    const value = score(item);
    if (value < lowest) [best, lowest] = [item, value];
  }
  return best;
}

/** `path.key`, the key shown only when it is a field name. */
function join(path: string, key: string): string {
  const name = FIELD_NAME.test(key) ? key : '*';
  return path === '' ? name : `${path}.${name}`;
}

function addPath(paths: Set<string>, path: string): void {
  if (paths.size < MAX_FINDINGS) paths.add(path);
}
