import * as z from 'zod/mini';
import { nonEmptyString, RecordSchema } from './common.js';

/** Body of a contact creation (Variant 1 ignores `custom_fields`). */
export const ContactCreateSchema = /* @__PURE__ */ z.object({
  name: nonEmptyString(),
  phone: z.string(),
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

/** Query of a contact list. */
export interface ContactListParams {
  page?: number;
  per_page?: number;
  /** Variant 2 only: text to look for in name, phone or email. */
  search?: string;
  /** Variant 2 only: only contacts carrying this tag. */
  tag?: string;
}
