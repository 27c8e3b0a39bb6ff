// What a loose zod schema names for certain, for the type tests that hold bizmsg's named interfaces
// (records, params, events) to their schemas: one definition, shared by the three.

/** Values that are no object, though `string & {}` (an open enum's newer value) passes `extends object`. */
export type Primitive = string | number | boolean | bigint | symbol | null | undefined;

/** The named keys of `T`: its index signatures left out. */
type NamedKey<K extends PropertyKey> = string extends K
  ? never
  : number extends K
    ? never
    : symbol extends K
      ? never
      : K;

/**
 * What a loose schema's output (or input) holds for certain: its named fields, in objects and
 * arrays at any depth, without the index signature that keeps (or lets through) other fields. An
 * object of no named field (a contact's `custom_fields`, automation data) stays as it is: its keys
 * are all it has.
 */
export type KnownFields<T> = T extends Primitive
  ? T
  : T extends readonly (infer Item)[]
    ? KnownFields<Item>[]
    : T extends object
      ? [keyof { [K in keyof T as NamedKey<K>]: 0 }] extends [never]
        ? T
        : { [K in keyof T as NamedKey<K>]: KnownFields<T[K]> }
      : T;
