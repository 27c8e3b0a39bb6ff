// The account's contacts, read page by page at the largest page size (contract/limits.ts: the spec
// does not show it, so a service that refuses it on `per_page` is read at its own default), keeping
// only the numbers the list has: what a sync compares its rows with.
import { PAGE_SIZE } from '../contract/limits.js';
import { ValidationError } from '../core/errors/classes.js';
import type { Contact } from '../schemas/contact.js';
import { phoneDigits } from '../shared/phone.js';
import type { SyncedContacts } from './types.js';

/** How the account is read: the walk's options, and what to call after each page (with its count of contacts). */
export interface ListingOptions {
  readonly signal: AbortSignal | undefined;
  readonly prefetch: number;
  readonly onPage: (contacts: number) => void;
}

/**
 * The contact of each number in `wanted` (digits) the account has. A number two contacts share
 * (a service that allows it) is the first one's.
 */
export async function readContacts(
  contacts: SyncedContacts,
  wanted: ReadonlySet<string>,
  { signal, prefetch, onPage }: ListingOptions,
): Promise<Map<string, Contact>> {
  const found = new Map<string, Contact>();
  let pages = 0;
  const walk = async (params: { per_page?: number }) => {
    for await (const page of contacts.list(params, { signal, prefetch }).pages()) {
      pages += 1;
      for (const contact of page.data) {
        const digits = digitsOf(contact.phone);
        if (digits !== undefined && wanted.has(digits) && !found.has(digits)) found.set(digits, contact);
      }
      onPage(page.data.length);
    }
  };
  try {
    await walk({ per_page: PAGE_SIZE.max });
  } catch (error) {
    if (pages > 0 || !ValidationError.is(error) || !Object.hasOwn(error.details, 'per_page')) throw error;
    await walk({});
  }
  return found;
}

/** The digits of a stored contact's number; undefined when it is none (it matches no row). */
function digitsOf(phone: unknown): string | undefined {
  try {
    return phoneDigits(phone, 'a contact');
  } catch {
    return undefined;
  }
}
