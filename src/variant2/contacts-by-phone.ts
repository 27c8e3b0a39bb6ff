// Contacts by phone number (Variant 2): finding the contact with a number in any spelling, and
// updating it or creating it, on top of the list's `search`, `create` and `update`.
import type { ListRequestOptions, RequestOptions } from '../core/call/options.js';
import { serializeBody } from '../core/call/request-body.js';
import { ResourceNotFoundError, ValidationError } from '../core/errors/classes.js';
import type { PagePromise } from '../core/call/pagination.js';
import type { Contact } from '../schemas/contact.js';
import type { ContactCreateParams, ContactUpdateParams, Variant2ContactListParams } from '../schemas/contact-params.js';
import { phoneDigits, samePhone } from '../shared/phone.js';

/** What `contacts.upsert` resolves with: the contact, and whether it was created (else updated). */
export interface ContactUpsertResult {
  /** The contact as the service returned it after the write. */
  contact: Contact;
  /** True when the contact was created, false when an existing one was updated. */
  created: boolean;
}

/** The endpoints of `client.contacts` these build on. */
export interface ContactEndpoints {
  list(params: Variant2ContactListParams, options?: ListRequestOptions): PagePromise<Contact>;
  create(body: ContactCreateParams, options?: RequestOptions): PromiseLike<Contact>;
  update(id: string | number, body: ContactUpdateParams, options?: RequestOptions): PromiseLike<Contact>;
}

/**
 * How many times `upsert` goes round when another writer moves first (a contact created with the
 * number after it looked, or the one it found deleted before it updated it).
 */
const UPSERT_ROUNDS = 3;

/**
 * The contact whose number is `phone` in any spelling, or undefined. The search goes by the
 * number's digits, which the service matches as text, so each contact found is compared with
 * `samePhone`: a longer number that contains these digits is not this one.
 */
export async function findContactByPhone(
  contacts: ContactEndpoints,
  phone: string,
  options: RequestOptions | undefined,
  what = 'contacts.findByPhone',
): Promise<Contact | undefined> {
  const digits = phoneDigits(phone, what);
  for await (const contact of contacts.list({ search: digits }, options)) {
    if (samePhone(contact.phone, digits)) return contact;
  }
  return undefined;
}

/**
 * Updates the contact with `params.phone`, else creates it. Two writers racing on one number end
 * with one contact: the service refuses a second contact with a number (a VALIDATION_ERROR on
 * `phone`), and on that refusal the contact that won is found and updated.
 */
export async function upsertContact(
  contacts: ContactEndpoints,
  params: ContactCreateParams,
  options: RequestOptions | undefined,
): Promise<ContactUpsertResult> {
  // Read and checked once, before the search: every request of the rounds sends the same JSON, and a
  // body that cannot be sent is refused before anything is.
  const fields = JSON.parse(serializeBody(params, 'The parameters of contacts.upsert')) as ContactCreateParams;
  const find = () => findContactByPhone(contacts, fields.phone, options, 'contacts.upsert, field `phone`');
  let found = await find();
  for (let round = 1; ; round++) {
    if (found !== undefined) {
      try {
        return { contact: await contacts.update(found.id, fields, options), created: false };
      } catch (error) {
        // Deleted since it was found: create it instead.
        if (round === UPSERT_ROUNDS || !ResourceNotFoundError.is(error)) throw error;
        found = undefined;
        continue;
      }
    }
    try {
      return { contact: await contacts.create(fields, options), created: true };
    } catch (error) {
      if (!ValidationError.is(error) || !Object.hasOwn(error.details, 'phone')) throw error;
      // Refused on `phone`: taken by a contact created since the search, if the search now finds it.
      found = await find();
      if (found === undefined || round === UPSERT_ROUNDS) throw error;
    }
  }
}
