// The shape check of one body against a schema of the contract: the one place the proxy asks it,
// so that the drift check the clients and receivers use plugs in here alone.
import type * as z from 'zod/mini';

/** How a body differs from its schema: dotted paths from the root (`data[].email`) and JSON type names, never a value. */
export interface ShapeDrift {
  readonly missing: readonly string[];
  readonly unexpected: readonly string[];
  readonly mismatched: ReadonlyArray<{ readonly path: string; readonly expected: string; readonly received: string }>;
}

/** How `value` (a parsed JSON body) differs from `schema`. */
export function shapeDrift(schema: z.ZodMiniType, value: unknown): ShapeDrift {
  const drift = {
    missing: [] as string[],
    unexpected: [] as string[],
    mismatched: [] as ShapeDrift['mismatched'][number][],
  };
  walk(schema, value, '', drift);
  return drift;
}

/** The JSON type name of a value. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

interface Def {
  readonly type: string;
  readonly innerType?: z.ZodMiniType;
  readonly in?: z.ZodMiniType;
  readonly shape?: Readonly<Record<string, z.ZodMiniType>>;
  readonly element?: z.ZodMiniType;
  readonly options?: readonly z.ZodMiniType[];
  readonly valueType?: z.ZodMiniType;
  readonly values?: readonly unknown[];
  readonly entries?: Readonly<Record<string, unknown>>;
  readonly getter?: () => z.ZodMiniType;
}

function defOf(schema: z.ZodMiniType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The schema inside the wrappers that do not change what JSON it takes (optional, nullable, default, pipe, lazy). */
function unwrapped(schema: z.ZodMiniType): { schema: z.ZodMiniType; optional: boolean; nullable: boolean } {
  let current = schema;
  let optional = false;
  let nullable = false;
  for (;;) {
    const def = defOf(current);
    if (def.type === 'optional' || def.type === 'default' || def.type === 'prefault') optional = true;
    if (def.type === 'nullable') nullable = true;
    const inner = def.innerType ?? def.in ?? def.getter?.();
    if (inner === undefined) return { schema: current, optional, nullable };
    current = inner;
  }
}

/** The JSON types a schema takes, for `expected`. */
function expectedType(schema: z.ZodMiniType): string {
  const def = defOf(unwrapped(schema).schema);
  switch (def.type) {
    case 'int':
    case 'bigint':
      return 'number';
    case 'literal':
      return [...new Set((def.values ?? []).map(jsonType))].join(' | ');
    case 'enum':
      return [...new Set(Object.values(def.entries ?? {}).map(jsonType))].join(' | ');
    case 'union':
      return [...new Set((def.options ?? []).map(expectedType))].join(' | ');
    case 'record':
      return 'object';
    default:
      return def.type;
  }
}

function walk(schema: z.ZodMiniType, value: unknown, path: string, drift: ReturnType<typeof emptyDrift>): void {
  const { schema: inner, nullable } = unwrapped(schema);
  if (value === null && nullable) return;
  const def = defOf(inner);
  const received = jsonType(value);
  switch (def.type) {
    case 'unknown':
    case 'any':
      return;
    case 'object': {
      if (received !== 'object') return mismatch(drift, path, 'object', received);
      const record = value as Record<string, unknown>;
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const at = joined(path, key);
        if (record[key] === undefined) {
          if (!unwrapped(field).optional) drift.missing.push(at);
        } else walk(field, record[key], at, drift);
      }
      for (const key of Object.keys(record))
        if (!Object.hasOwn(def.shape ?? {}, key)) drift.unexpected.push(joined(path, key));
      return;
    }
    case 'array':
      if (received !== 'array') return mismatch(drift, path, 'array', received);
      for (const item of value as unknown[]) walk(def.element!, item, `${path}[]`, drift);
      return;
    case 'record':
      if (received !== 'object') return mismatch(drift, path, 'object', received);
      for (const item of Object.values(value as Record<string, unknown>))
        walk(def.valueType!, item, joined(path, '*'), drift);
      return;
    case 'union': {
      const options = def.options ?? [];
      // The option of the same JSON type says what differs inside; none: a mismatch of the whole.
      const tried = options.map((option) => {
        const own = emptyDrift();
        walk(option, value, path, own);
        return own;
      });
      if (tried.some((own) => own.mismatched.length === 0 && own.missing.length === 0)) {
        const best = tried.find((own) => own.mismatched.length === 0 && own.missing.length === 0)!;
        drift.unexpected.push(...best.unexpected);
        return;
      }
      const same = options.findIndex((option) => expectedType(option).split(' | ').includes(received));
      if (same === -1) return mismatch(drift, path, expectedType(inner), received);
      const own = tried[same]!;
      drift.missing.push(...own.missing);
      drift.unexpected.push(...own.unexpected);
      drift.mismatched.push(...own.mismatched);
      return;
    }
    default: {
      const expected = expectedType(inner);
      if (!expected.split(' | ').includes(received)) mismatch(drift, path, expected, received);
    }
  }
}

function emptyDrift() {
  return { missing: [] as string[], unexpected: [] as string[], mismatched: [] as ShapeDrift['mismatched'][number][] };
}

function mismatch(drift: ReturnType<typeof emptyDrift>, path: string, expected: string, received: string): void {
  drift.mismatched.push({ path: path === '' ? '(body)' : path, expected, received });
}

function joined(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
