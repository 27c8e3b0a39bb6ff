// Account information, as the service returns it.
import * as z from 'zod/mini';
import { IdSchema, maybe } from './common.js';

/** Account information from `GET /account/me` (fields not shown in the spec; all kept). */
export const AccountSchema = /* @__PURE__ */ z.looseObject({
  id: z.optional(IdSchema),
  name: maybe(z.string()),
  email: maybe(z.string()),
  plan: maybe(z.string()),
  /** The scopes of the key that asked (spec section 5). */
  scopes: z.optional(z.array(z.string())),
});
/** Account information. */
export type Account = z.infer<typeof AccountSchema>;
