// Whether a contact already holds what a row's fields say: only then is nothing written. Tags are a
// set (their order and repeats aside), custom fields are compared by value (their keys' order aside),
// a field the contact lacks is empty.
import type { Contact } from '../schemas/contact.js';
import { isRecord } from '../shared/guards.js';
import type { ContactFields } from './rows.js';

/** True when `contact` has every field of `fields` already. */
export function holds(contact: Contact, fields: ContactFields): boolean {
  return (
    (fields.name === undefined || fields.name === contact.name) &&
    (fields.email === undefined || fields.email === contact.email) &&
    (fields.tags === undefined || sameTags(fields.tags, contact.tags ?? [])) &&
    (fields.custom_fields === undefined || canonical(fields.custom_fields) === canonical(contact.custom_fields ?? {}))
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
