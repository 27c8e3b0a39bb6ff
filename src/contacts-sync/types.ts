// The words of contacts.sync: a row of the list, the options, and what the run gives back (one
// result per row, progress, the report).
import type { ListRequestOptions, RequestOptions } from '../core/call/options.js';
import type { PagePromise } from '../core/call/pagination.js';
import type { Run } from '../runs/run.js';
import type { Contact } from '../schemas/contact.js';
import type { ContactCreateParams, ContactUpdateParams } from '../schemas/contact-params.js';

/**
 * One row of a list to sync: a number in any spelling, and the fields its contact should have. A
 * field left out (or undefined, or null as a `Contact` read back holds it) is left as the contact
 * has it; one given replaces it (`tags` and `custom_fields` whole, as `update` does). A `Contact`
 * is a row: synced back, it changes nothing.
 */
export interface ContactSyncRow {
  /** The contact's phone number, in any spelling (`+1 415 555 0100`, `tel:+14155550100`, a national number with the client's `phoneFormat`). */
  phone: string;
  /** Needed to create a contact; an existing one keeps its name when the row has none. */
  name?: string | null | undefined;
  /** The contact's email address. */
  email?: string | null | undefined;
  /** The contact's tags, replacing those it has. */
  tags?: string[] | undefined;
  /** The contact's custom fields by name, replacing those it has. */
  custom_fields?: Record<string, unknown> | undefined;
}

/** Options of `contacts.sync`. */
export interface ContactSyncOptions {
  /** Writes (and page reads) in flight at once, 1 to 256 (default 8); the client's pacing sets the pace. */
  concurrency?: number | undefined;
  /** Stops the sync: no further write starts, those in flight finish; the report says `aborted`. */
  signal?: AbortSignal | undefined;
}

/** What became of a row: its contact created, updated, already equal, the row failed, or merged into a later row of its number. */
export type ContactSyncStatus = 'created' | 'updated' | 'unchanged' | 'failed' | 'merged';

/** Why a row failed: the service's error code (or `INVALID_PHONE`, `INVALID_ROW`, an error's name) and what happened. */
export interface ContactSyncFailure {
  /** The service's error code, or `INVALID_PHONE`, `INVALID_ROW`, an error's name. */
  readonly code: string;
  /** What happened, the API key removed. */
  readonly message: string;
}

/** The outcome of one row. */
export interface ContactSyncResult {
  /** The row's place in the list, from 1. */
  readonly row: number;
  /** The row's number in E.164, or as given when it is no valid number. */
  readonly phone: string;
  /** What became of the row. */
  readonly status: ContactSyncStatus;
  /** The contact's id (of a merged row: the contact its number's last row wrote), when there is one. */
  readonly contactId?: string | number;
  /** Why the row failed. */
  readonly error?: ContactSyncFailure;
}

/**
 * Counts of a sync: `total` rows read, each with one status, so that `created + updated +
 * unchanged + failed + merged = total`, unless the sync was aborted (the rows it left unwritten
 * are in no count).
 */
export interface ContactSyncReport {
  /** Rows read from the list. */
  readonly total: number;
  /** Rows whose contact was created. */
  readonly created: number;
  /** Rows whose contact was updated. */
  readonly updated: number;
  /** Rows whose contact already had their fields (nothing written). */
  readonly unchanged: number;
  /** Rows that failed (an invalid number or row, or an error of the service). */
  readonly failed: number;
  /** Rows whose number a later row of the list has too, in any spelling (the later row's fields win). */
  readonly merged: number;
  /** True when the signal stopped the sync before every row had its outcome. */
  readonly aborted: boolean;
}

/** Where a running sync is: the report so far, the account's contacts read, the writes in flight. */
export interface ContactSyncProgress extends Omit<ContactSyncReport, 'aborted'> {
  /** Contacts of the account read so far (the pages read before the writes). */
  readonly read: number;
  /** Writes under way. */
  readonly inFlight: number;
}

/** A sync under way: `await` it for the `ContactSyncReport`, `on('progress', …)`, `results()`. */
export type ContactSyncRun = Run<ContactSyncReport, ContactSyncResult, ContactSyncProgress>;

/** The contact endpoints a sync drives: `client.contacts` of either variant. */
export interface SyncedContacts {
  list(params: { page?: number; per_page?: number }, options?: ListRequestOptions): PagePromise<Contact>;
  create(body: ContactCreateParams, options?: RequestOptions): PromiseLike<Contact>;
  update(id: string | number, body: ContactUpdateParams, options?: RequestOptions): PromiseLike<Contact>;
}
