// Writing one number's contact: an update when the contact read differs from the row, a create
// when the account has none. A write whose outcome only the account can tell is put off until it
// is read again: a create refused because the number is taken since the read (another writer), an
// update of a contact deleted since, an answer that may have been processed.
import { ResourceNotFoundError, ValidationError } from '../core/errors/classes.js';
import { waitOutRateLimits } from '../runs/rate-refusals.js';
import type { Contact } from '../schemas/contact.js';
import type { ContactCreateParams } from '../schemas/contact-params.js';
import { holds } from './fields.js';
import type { Entry } from './rows.js';
import type { SyncedContacts } from './types.js';

/** How a write ended: its status and contact, or put off (`pending`: what to remember until the next read). */
export type Written =
  | {
      readonly status: 'created' | 'updated' | 'unchanged';
      readonly contactId: string | number;
      readonly pending?: undefined;
    }
  | { readonly pending: NonNullable<Entry['pending']> };

/**
 * Writes `entry` given `stored`, the contact of its number the last read found. Throws what ended
 * it otherwise (a refusal, the service out of reach, an `AbortError` from the wait for the rate window).
 */
export async function writeEntry(
  contacts: SyncedContacts,
  entry: Entry,
  stored: Contact | undefined,
  signal: AbortSignal | undefined,
): Promise<Written> {
  const processedAs = entry.pending?.mayHaveBeenProcessedAs;
  if (stored !== undefined && holds(stored, entry.fields))
    return { status: processedAs ?? 'unchanged', contactId: stored.id };
  // A create that may have been processed, and the account does not show it: never sent again
  // (a second contact could be the result); the next sync reads the account afresh.
  if (stored === undefined && processedAs === 'created') throw entry.pending!.error;
  const body = { ...entry.fields, phone: entry.phone };
  try {
    if (stored !== undefined) {
      await waitOutRateLimits(() => contacts.update(stored.id, body), signal);
      return { status: 'updated', contactId: stored.id };
    }
    const created = await waitOutRateLimits(() => contacts.create(body as ContactCreateParams), signal);
    return { status: 'created', contactId: created.id };
  } catch (error) {
    const moved =
      stored === undefined
        ? ValidationError.is(error) && Object.hasOwn(error.details, 'phone')
        : ResourceNotFoundError.is(error);
    if (!mayHaveBeenProcessed(error)) {
      if (!moved) throw error;
      return { pending: { error, mayHaveBeenProcessedAs: processedAs } };
    }
    return { pending: { error, mayHaveBeenProcessedAs: stored === undefined ? 'created' : 'updated' } };
  }
}

function mayHaveBeenProcessed(error: unknown): boolean {
  return (error as { mayHaveBeenProcessed?: unknown } | undefined)?.mayHaveBeenProcessed === true;
}
