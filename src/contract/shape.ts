// The shape the drift check walks (drift.ts), read once from a zod schema: what the clients and the
// mock's proxy check against, and what scripts/event-shapes.ts writes out for the receivers.
import type { ZodMiniType } from 'zod/mini';
import { EXPECTED, INTEGERS, NEEDED } from '../schemas/common.js';
import { jsonType, type JsonTypeName, type Presence, type Shape } from './drift.js';

/** The internals of a zod schema the conversion reads. */
interface Def {
  readonly type: string;
  readonly format?: string;
  readonly innerType: ZodMiniType;
  readonly in: ZodMiniType;
  readonly shape: Record<string, ZodMiniType>;
  readonly element: ZodMiniType;
  readonly valueType: ZodMiniType;
  readonly options: readonly ZodMiniType[];
  readonly discriminator?: string;
  readonly values: readonly unknown[];
}

/** The JSON types a zod schema of each kind takes, as its own name says (`enum` and `record` aside). */
const JSON_TYPE = /^(string|number|boolean|null|object|array)$/;

const SHAPES = new WeakMap<ZodMiniType, Shape>();

/** The shape of a zod schema, worked out once per schema. */
export function shapeOfSchema(schema: ZodMiniType): Shape {
  let shape = SHAPES.get(schema);
  if (shape === undefined) SHAPES.set(schema, (shape = convert(schema)));
  return shape;
}

function convert(schema: ZodMiniType): Shape {
  const def = schema._zod.def as unknown as Def;
  const { type } = def;
  if (type === 'optional') return shapeOfSchema(def.innerType);
  if (type === 'pipe') return shapeOfSchema(def.in);
  if (type === 'nullable') {
    const inner = shapeOfSchema(def.innerType);
    return inner.types === undefined ? inner : { ...inner, types: [...inner.types, 'null'] };
  }
  if (type === 'union') {
    const options = def.options.map(shapeOfSchema);
    const types = options.every((option) => option.types !== undefined)
      ? [...new Set(options.flatMap((option) => option.types!))]
      : undefined;
    const { discriminator } = def;
    // The walk reads a union's options only for an object: a union of leaves needs its types alone.
    if (types !== undefined && options.every((option) => Object.keys(option).length === 1)) return { types };
    return {
      ...(types === undefined ? {} : { types }),
      options,
      ...(discriminator === undefined
        ? {}
        : { tag: [discriminator, def.options.map((option) => [...(option._zod.propValues?.[discriminator] ?? [])])] }),
    };
  }
  const name =
    type === 'literal' ? jsonType(def.values[0]) : type === 'enum' ? 'string' : type === 'record' ? 'object' : type;
  if (!JSON_TYPE.test(name)) return {};
  const whole = name === 'number' && (def.format?.includes('int') === true || INTEGERS.has(schema));
  const types: JsonTypeName[] = [whole ? 'integer' : (name as JsonTypeName)];
  if (type === 'array') return { types, items: shapeOfSchema(def.element) };
  if (type === 'record') return { types, values: shapeOfSchema(def.valueType) };
  if (type !== 'object') return { types };
  const fields: Record<string, readonly [Shape, Presence]> = {};
  for (const [key, field] of Object.entries(def.shape)) fields[key] = [shapeOfSchema(field), presenceOf(field)];
  return { types, fields };
}

function presenceOf(field: ZodMiniType): Presence {
  if (field._zod.optin !== 'optional') return 'required';
  return EXPECTED.has(field) ? 'expected' : NEEDED.has(field) ? 'needed' : 'optional';
}
