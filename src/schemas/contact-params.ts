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
/** Body of a contact creation (`contacts.create`). */
export interface ContactCreateParams {
  /** The contact's display name, not empty (shown in the spec). */
  name: string;
  /** The contact's phone number, international (`+4915112345678`) or in the client's `phoneFormat` (shown in the spec). */
  phone: string;
  /** The contact's email address (shown in the spec). */
  email?: string | undefined;
  /** Tags to put on the contact (shown in the spec). */
  tags?: string[] | undefined;
  /** Free-form key/value pairs kept on the contact (shown in Variant 2's spec; Variant 1's does not show it). */
  custom_fields?: Record<string, unknown> | undefined;
}

/** Body of a contact update: any subset of the creation fields. */
export const ContactUpdateSchema = /* @__PURE__ */ z.partial(ContactCreateSchema);
/** Body of a contact update (`contacts.update`): only the fields given change. */
export interface ContactUpdateParams {
  /** The contact's new display name, not empty (Variant 2's spec shows the update fields; Variant 1's does not show the update body). */
  name?: string | undefined;
  /** The contact's new phone number, international or in the client's `phoneFormat` (Variant 2's spec shows the update fields; Variant 1's does not show the update body). */
  phone?: string | undefined;
  /** The contact's new email address (Variant 2's spec shows the update fields; Variant 1's does not show the update body). */
  email?: string | undefined;
  /** The contact's new tags (Variant 2's spec shows the update fields; Variant 1's does not show the update body). */
  tags?: string[] | undefined;
  /** Free-form key/value pairs kept on the contact (Variant 2's spec shows the update fields; Variant 1's does not show the update body). */
  custom_fields?: Record<string, unknown> | undefined;
}

/** Query of a Variant 1 contact list. */
export interface Variant1ContactListParams {
  /** The page to start from, from 1 (default 1); a walk with `for await` goes on from it. */
  page?: number | undefined;
  /** Contacts a page holds (the service's default when left out). */
  per_page?: number | undefined;
}

/** Query of a Variant 2 contact list: Variant 1's, plus a search text and a tag. */
export interface Variant2ContactListParams extends Variant1ContactListParams {
  /** Text to look for in name, phone or email. */
  search?: string | undefined;
  /** Only contacts carrying this tag. */
  tag?: string | undefined;
}
