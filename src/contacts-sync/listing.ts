// The account's contacts, read page by page at the largest page size (contract/limits.ts: the spec
// does not show it, so a service that refuses it on `per_page` is read at its own default), keeping
// only the numbers the list has: what a sync compares its rows with.
import { PAGE_SIZE } from '../contract/limits.js';
import { ValidationError } from '../core/errors/classes.js';
import type { Contact } from '../schemas/contact.js';
import { phoneDigits } from '../shared/phone.js';
import type { SyncedContacts } from './types.js';
import { markLeftOut } from './fields.js';
import { ROW_FIELDS } from './rows.js';
import type { Page } from '../core/call/pagination.js';
import { isRecord } from '../shared/guards.js';

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
      const kept: Contact[] = [];
      for (const contact of page.data) {
        const digits = digitsOf(contact.phone);
        if (digits !== undefined && wanted.has(digits) && !found.has(digits))
          found.set(digits, (kept[kept.length] = contact));
      }
      await noteLeftOut(page, kept);
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

/**
 * Marks the fields a kept contact lacks though its answer held them: left out by the tolerant
 * reader (a shape bizmsg cannot read, as `tags` in a string), so that a sync does not take them for
 * empty and write the row again on every run. A field the answer did not hold is read as empty. The
 * page's body is read again only when a kept contact lacks a field; when its items cannot be told
 * apart, each field a contact lacks counts as left out.
 */
async function noteLeftOut(page: Page<Contact>, kept: readonly Contact[]): Promise<void> {
  const lacking = kept.filter((contact) => ROW_FIELDS.some((field) => contact[field] === undefined));
  if (lacking.length === 0) return;
  const items = itemsOf(await page.response.json().catch(() => undefined));
  for (const contact of lacking) {
    const sent = items?.length === page.data.length ? items[page.data.indexOf(contact)] : undefined;
    const leftOut = ROW_FIELDS.filter(
      (field) => contact[field] === undefined && (sent === undefined || !isRecord(sent) || Object.hasOwn(sent, field)),
    );
    if (leftOut.length > 0) markLeftOut(contact, leftOut);
  }
}

/** The items of a list answer, bare or in its envelope (`data`), wrapped or not (`{ data }`, `{ items }`). */
function itemsOf(body: unknown): unknown[] | undefined {
  for (let depth = 0; depth < 3; depth++) {
    if (Array.isArray(body)) return body as unknown[];
    if (!isRecord(body)) return undefined;
    body = body.data ?? body.items;
  }
  return undefined;
}

/** The digits of a stored contact's number; undefined when it is none (it matches no row). */
function digitsOf(phone: unknown): string | undefined {
  try {
    return phoneDigits(phone, 'a contact');
  } catch {
    return undefined;
  }
}
