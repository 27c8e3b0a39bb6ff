// Whether a contact already holds what a row's fields say: only then is nothing written. Tags are a
// set (their order and repeats aside), custom fields are compared by value (their keys' order aside),
// a field the contact's answer did not hold is empty, and one the reader left out is not compared.
import type { Contact } from '../schemas/contact.js';
import { isRecord } from '../shared/guards.js';
import type { ContactFields, ROW_FIELDS } from './rows.js';

/** The fields of a stored contact that its answer held but bizmsg could not read (listing.ts). */
const LEFT_OUT = new WeakMap<Contact, ReadonlySet<string>>();

/** Notes that `contact`'s answer held `fields` in a shape bizmsg could not read: they are not compared. */
export function markLeftOut(contact: Contact, fields: readonly string[]): void {
  LEFT_OUT.set(contact, new Set(fields));
}

/** True when `contact` has every field of `fields` already, as far as it could be read. */
export function holds(contact: Contact, fields: ContactFields): boolean {
  const leftOut = LEFT_OUT.get(contact);
  const unread = (field: (typeof ROW_FIELDS)[number]) => leftOut?.has(field) === true;
  return (
    (fields.name === undefined || unread('name') || fields.name === contact.name) &&
    (fields.email === undefined || unread('email') || fields.email === contact.email) &&
    (fields.tags === undefined || unread('tags') || sameTags(fields.tags, contact.tags ?? [])) &&
    (fields.custom_fields === undefined ||
      unread('custom_fields') ||
      canonical(fields.custom_fields) === canonical(contact.custom_fields ?? {}))
  );
}

function sameTags(given: unknown, stored: unknown): boolean {
  if (!Array.isArray(given) || !Array.isArray(stored)) return false;
  const held = new Set(stored);
  return new Set(given).size === held.size && given.every((tag) => held.has(tag));
}

/** JSON with each object's keys in order, so that two values with the same content give the same text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    isRecord(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
