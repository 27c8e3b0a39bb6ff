// The bodies and queries of the contact endpoints.
import * as z from 'zod/mini';
import { nonEmptyString, PhoneParamSchema, RecordSchema } from './common.js';

/** Body of a contact creation, in both variants (Variant 1's row in the spec does not show `custom_fields`; the contact has them). */
export const ContactCreateSchema = /* @__PURE__ */ z.object({
  name: nonEmptyString(),
  phone: PhoneParamSchema,
  email: z.optional(z.email()),
  tags: z.optional(z.array(z.string())),
  custom_fields: z.optional(RecordSchema),
});
/** Body of a contact creation. */
export type ContactCreateParams = z.input<typeof ContactCreateSchema>;

/** Body of a contact update: any subset of the creation fields. */
export const ContactUpdateSchema = /* @__PURE__ */ z.partial(ContactCreateSchema);
/** Body of a contact update. */
export type ContactUpdateParams = z.input<typeof ContactUpdateSchema>;

/** Query of a Variant 1 contact list. */
export interface Variant1ContactListParams {
  page?: number | undefined;
  per_page?: number | undefined;
}

/** Query of a Variant 2 contact list: Variant 1's, plus a search text and a tag. */
export interface Variant2ContactListParams extends Variant1ContactListParams {
  /** Text to look for in name, phone or email. */
  search?: string | undefined;
  /** Only contacts carrying this tag. */
  tag?: string | undefined;
}
