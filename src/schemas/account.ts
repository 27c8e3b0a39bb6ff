// Account information, as the service returns it.
import * as z from 'zod/mini';
import { expected, IdSchema } from './common.js';

/** Account information from `GET /account/me` (fields not shown in the spec; all kept). */
export const AccountSchema = /* @__PURE__ */ z.looseObject({
  id: expected(IdSchema),
  name: expected(z.nullable(z.string())),
  email: expected(z.nullable(z.string())),
  plan: expected(z.nullable(z.string())),
  /** The scopes of the key that asked (spec section 5). */
  scopes: expected(z.array(z.string())),
});
/** Account information. */
export type Account = z.infer<typeof AccountSchema>;
