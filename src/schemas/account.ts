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
/** Account information, as `GET /account/me` returns it; the spec shows none of its fields. */
export interface Account {
  /** The account's id (guessed: may be missing). */
  id?: string | number | undefined;
  /** The account's name (guessed: may be missing). */
  name?: string | null | undefined;
  /** The account's email address (guessed: may be missing). */
  email?: string | null | undefined;
  /** The account's plan (guessed: may be missing). */
  plan?: string | null | undefined;
  /** The scopes of the API key that asked, as `contacts:read` (guessed: may be missing). */
  scopes?: string[] | undefined;
}
