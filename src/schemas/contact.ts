// A contact, and the result of a deletion, as the service returns them.
import * as z from 'zod/mini';
import { expected, IdSchema, maybe, PairsSchema } from './common.js';

/** A contact as the service returns it; unknown fields are kept. */
export const ContactSchema = /* @__PURE__ */ z.looseObject({
  id: IdSchema,
  name: maybe(z.string()),
  phone: z.string(),
  email: maybe(z.string()),
  tags: z.optional(z.array(z.string())),
  custom_fields: z.optional(PairsSchema),
  created_at: expected(z.nullable(z.string())),
  updated_at: expected(z.nullable(z.string())),
});
/** A contact as the service returns it. */
export type Contact = z.infer<typeof ContactSchema>;

/** Result of a contact deletion; the service may also answer with an empty body. */
export const DeleteResultSchema = /* @__PURE__ */ z.optional(
  z.looseObject({ id: expected(IdSchema), deleted: expected(z.boolean()) }),
);
/** Result of a deletion. */
export type DeleteResult = NonNullable<z.infer<typeof DeleteResultSchema>>;
