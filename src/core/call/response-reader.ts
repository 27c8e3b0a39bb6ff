// Reading a successful response as a tolerant reader: a guessed field that is missing or of another
// type does not fail the call (it is left out), and what differs is reported.
import * as z from 'zod/mini';
import { compareShape } from '../../contract/drift.js';
import { shapeOfSchema } from '../../contract/shape.js';
import { expected, ListMetaSchema } from '../../schemas/common.js';

/** The shape of an enveloped body (`{ success?, data, meta? }`), by payload schema, for lists and not. */
const envelopes = [new WeakMap<z.ZodMiniType, z.ZodMiniType>(), new WeakMap<z.ZodMiniType, z.ZodMiniType>()];

/**
 * The shape a body is read with: the payload's schema for a bare body, else the envelope of both
 * variants around it, so that each path names the field from the body's root (`data.tags`,
 * `meta.total`, an unknown `request_id` beside `data`).
 */
export function shapeOf(schema: z.ZodMiniType, enveloped: boolean, list: boolean): z.ZodMiniType {
  if (!enveloped) return schema;
  const cache = envelopes[Number(list)]!;
  let shape = cache.get(schema);
  if (shape === undefined) {
    // A list's `meta` is shown (spec section 2): reported when missing, and then the list is one page.
    const meta = list ? expected(ListMetaSchema) : z.optional(z.unknown());
    shape = z.looseObject({ success: z.optional(z.boolean()), data: schema, meta });
    cache.set(schema, shape);
  }
  return shape;
}

/** The body with every optional field of another type left out: what the payload is parsed from. */
export function tolerantBody(shape: z.ZodMiniType, body: unknown): unknown {
  return compareShape(shapeOfSchema(shape), body).value;
}
