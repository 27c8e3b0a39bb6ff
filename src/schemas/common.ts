// What the schemas share: ids, list meta, open enums, phone numbers and small builders.
import * as z from 'zod/mini';

/** A resource id; the spec does not fix its type, so both JSON strings and numbers are accepted. */
export const IdSchema = /* @__PURE__ */ z.union([z.string(), z.number()]);

/**
 * The numbers of answers and events that bizmsg expects to be whole: read as any number (zod's int
 * costs the clients ~0.5 KB min+gzip, figure 1), and reported by the drift check (contract/shape.ts
 * reads them as `integer`) and typed `integer` in the documents when they are not.
 */
export const INTEGERS: WeakSet<z.ZodMiniType> = /* @__PURE__ */ new WeakSet();

/** A number of an answer or event that should be whole (see `INTEGERS`); requests keep zod's `z.int()`. */
/* @__NO_SIDE_EFFECTS__ */
export function int(): z.ZodMiniNumber<number> {
  const schema = z.number();
  INTEGERS.add(schema);
  return schema;
}

/** Pagination info of a list response. */
export const ListMetaSchema = /* @__PURE__ */ z.looseObject({
  current_page: int(),
  per_page: int(),
  total: int(),
  last_page: int(),
});
/** Pagination info of a list response (spec section 2, both variants). */
export interface ListMeta {
  /** The number of this page, from 1. */
  current_page: number;
  /** The most items a page holds. */
  per_page: number;
  /** The number of items over all pages. */
  total: number;
  /** The number of the last page (the page count). */
  last_page: number;
}

/** A string that is one of `values` today but may be a newer value tomorrow. */
export type OpenEnum<T extends string> = T | (string & {});

/**
 * The values each open enum knows today, for the documents generated from the schemas
 * (src/openapi). A WeakMap rather than a zod registry: the clients carry it, and it costs them nothing.
 */
export const knownValues = /* @__PURE__ */ new WeakMap<z.ZodMiniType, readonly string[]>();

/**
 * Accepts any string, typed as the known values plus "other", so a status the service adds
 * later does not break parsing of older clients.
 */
/* @__NO_SIDE_EFFECTS__ */
export function openEnum<const T extends readonly string[]>(values: T): z.ZodMiniType<OpenEnum<T[number]>> {
  const schema = z.string();
  knownValues.set(schema, values);
  return schema;
}

/**
 * A phone number a request sends. Any string to the parser, since the service answers a malformed
 * one with INVALID_PHONE, not VALIDATION_ERROR; the documents give it `PHONE_PATTERN` (shared/phone-pattern.ts).
 */
export const PhoneParamSchema = /* @__PURE__ */ z.string();

/**
 * Free-form key/value pairs (custom fields, automation data), as a request or the mock's control
 * API gives them. Each call is marked pure, so that a bundle that does not use it drops it: esbuild
 * keeps a pure call whose arguments are unmarked calls.
 */
export const RecordSchema = /* @__PURE__ */ z.record(/* @__PURE__ */ z.string(), /* @__PURE__ */ z.unknown());

/**
 * Free-form key/value pairs as an answer carries them (a contact's custom fields): an object of no
 * fields that keeps every key. A JSON object reads as with `RecordSchema`, and the clients carry
 * none of zod's record (~550 bytes min+gzip, figure 1); the drift check reports none of its keys.
 */
export const PairsSchema = /* @__PURE__ */ z.looseObject({});

/**
 * The fields of answers and events that bizmsg expects every time, though the spec does not show
 * them (its guess, and what its mock always sends): optional in the types, so that a service
 * without them still reads, but reported missing by the drift check (contract/drift.ts) when absent.
 */
export const EXPECTED: WeakSet<z.ZodMiniType> = /* @__PURE__ */ new WeakSet();

/** `schema` as a field bizmsg expects every time but does not require (see `EXPECTED`). */
/* @__NO_SIDE_EFFECTS__ */
export function expected<T extends z.ZodMiniType>(schema: T) {
  const field = z.optional(schema);
  EXPECTED.add(field);
  return field;
}

/**
 * Optional fields of which bizmsg needs one (a message's id, as `id` or `message_id`): the drift
 * check reads them in their type where nothing is lost (a number as its digits), as required ones.
 */
export const NEEDED: WeakSet<z.ZodMiniType> = /* @__PURE__ */ new WeakSet();

/** `schema` as an optional field of which bizmsg needs one of several (see `NEEDED`). */
/* @__NO_SIDE_EFFECTS__ */
export function needed<T extends z.ZodMiniType>(schema: T) {
  const field = z.optional(schema);
  NEEDED.add(field);
  return field;
}

/** The optional, nullable form of `schema`, for response fields the service may omit or null. */
/* @__NO_SIDE_EFFECTS__ */
export function maybe<T extends z.ZodMiniType>(schema: T) {
  return z.optional(z.nullable(schema));
}

/** A string with at least one character. */
/* @__NO_SIDE_EFFECTS__ */
export function nonEmptyString() {
  return z.string().check(z.minLength(1));
}

/** An array with at least one item of `schema`. */
/* @__NO_SIDE_EFFECTS__ */
export function nonEmptyArray<T extends z.ZodMiniType>(schema: T) {
  return z.array(schema).check(z.minLength(1));
}
