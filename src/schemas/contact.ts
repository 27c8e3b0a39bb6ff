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
export interface Contact {
  /** The contact's id. */
  id: string | number;
  /** The contact's name, when it has one. */
  name?: string | null | undefined;
  /** The contact's phone number, as the service wrote it. */
  phone: string;
  /** The contact's email address, when it has one. */
  email?: string | null | undefined;
  /** The contact's tags. */
  tags?: string[] | undefined;
  /** The contact's custom fields, by name. */
  custom_fields?: Record<string, unknown> | undefined;
  /** When the contact was created, as the service wrote the time (guessed: may be missing). */
  created_at?: string | null | undefined;
  /** When the contact was last changed, as the service wrote the time (guessed: may be missing). */
  updated_at?: string | null | undefined;
}

/** Result of a contact deletion; the service may also answer with an empty body. */
export const DeleteResultSchema = /* @__PURE__ */ z.optional(
  z.looseObject({ id: expected(IdSchema), deleted: expected(z.boolean()) }),
);
/** Result of a deletion; the spec shows none of its fields. */
export interface DeleteResult {
  /** The id of the record deleted (guessed: may be missing). */
  id?: string | number | undefined;
  /** True when the record was deleted (guessed: may be missing). */
  deleted?: boolean | undefined;
}
