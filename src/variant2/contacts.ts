// `client.contacts` of Variant 2.
import type { ApiPromise } from '../core/call/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { ListRequestOptions, RequestOptions } from '../core/call/options.js';
import { paginate, type PagePromise } from '../core/call/pagination.js';
import { VARIANT2_ROUTES } from '../contract/routes.js';
import { ContactsResource } from '../resources/contacts.js';
import { callOf, listCallOf } from '../resources/route.js';
import type { BodyEncoder } from '../core/wire/call.js';
import { writingPhones, type ClientPhoneFormat } from '../resources/phones.js';
import type { Contact, DeleteResult } from '../schemas/contact.js';
import type { ContactCreateParams, Variant2ContactListParams } from '../schemas/contact-params.js';
import { findContactByPhone, upsertContact, type ContactUpsertResult } from './contacts-by-phone.js';
import { syncContacts } from '../contacts-sync/sync.js';
import type { ContactSyncOptions, ContactSyncRow, ContactSyncRun } from '../contacts-sync/types.js';

const LIST = /* @__PURE__ */ listCallOf(VARIANT2_ROUTES, 'listContacts');
const CREATE = /* @__PURE__ */ callOf(VARIANT2_ROUTES, 'createContact');
const DELETE = /* @__PURE__ */ callOf(VARIANT2_ROUTES, 'deleteContact');

/** Variant 2 contact endpoints. */
export class Variant2Contacts extends ContactsResource {
  readonly #http: HttpClient;
  readonly #phone: BodyEncoder;

  /** @internal The clients create their resources. */
  constructor(http: HttpClient, phoneFormat: ClientPhoneFormat) {
    super(http, phoneFormat);
    this.#http = http;
    this.#phone = writingPhones(['phone'], phoneFormat);
  }

  /** Lists contacts, optionally filtered by `search` text or a `tag` (scope `contacts:read`). */
  list(params: Variant2ContactListParams = {}, options?: ListRequestOptions): PagePromise<Contact> {
    return paginate(this.#http, { ...LIST, query: params }, options);
  }

  /** Creates a contact (scope `contacts:write`). */
  create(body: ContactCreateParams, options?: RequestOptions): ApiPromise<Contact> {
    return this.#http.request({ ...CREATE, body, encodeBody: this.#phone }, options);
  }

  /** Deletes a contact; an empty answer reads as `{ id, deleted: true }` (scope `contacts:write`). */
  delete(id: string | number, options?: RequestOptions): ApiPromise<DeleteResult> {
    const map = (result: DeleteResult | undefined) => result ?? { id, deleted: true };
    return this.#http.request({ ...DELETE, ids: [id], map }, options);
  }

  /**
   * The contact whose number is `phone`, in any spelling (`'+49 151 1234 5678'` finds one stored
   * as `'4915112345678'`), or `undefined`; an invalid number rejects with `InvalidArgumentError`.
   * Built on `list({ search })`: it walks the matches and compares each with `samePhone`, so a
   * longer number containing these digits is not taken for it (scope `contacts:read`).
   *
   * @example
   * ```ts
   * const contact = await client.contacts.findByPhone('+49 151 1234 5678');
   * ```
   */
  findByPhone(phone: string, options?: RequestOptions): Promise<Contact | undefined> {
    return findContactByPhone(this, phone, options);
  }

  /**
   * Updates the contact with number `params.phone` (any spelling) with `params`, else creates it;
   * resolves `{ contact, created }`. Two upserts of one number racing (here or in other processes)
   * end with one contact: a create refused because the number is taken since the search finds the
   * contact that won and updates it (scopes `contacts:read` and `contacts:write`).
   *
   * @example
   * ```ts
   * const { contact, created } = await client.contacts.upsert({ phone: '0049 151 1234 5678', name: 'Ada' });
   * ```
   */
  upsert(params: ContactCreateParams, options?: RequestOptions): Promise<ContactUpsertResult> {
    return upsertContact(this, params, options);
  }

  /**
   * Makes the account's contacts match `rows`, one contact per number, and returns the run (`await`
   * it for `{ total, created, updated, unchanged, failed, merged, aborted }`; `on('progress', …)`;
   * `results()`). It reads the account's contacts once (every page, at the largest page size),
   * then creates the new numbers and updates only the contacts whose fields differ: an unchanged
   * list costs its pages alone. Rows of one number in any spelling are merged (a later row's
   * fields win; the earlier rows are `merged`); a row with no valid number is `failed` with its
   * reason. A create refused because another writer took the number since becomes an update after
   * the account is read again: never a second contact (scopes `contacts:read` and `contacts:write`).
   *
   * @example
   * ```ts
   * const report = await client.contacts.sync([
   *   { phone: '+49 151 1234 5678', name: 'Ada', tags: ['vip'] },
   *   { phone: '447700900123', name: 'Grace', email: 'grace@example.com' },
   * ]);
   * ```
   */
  sync(rows: Iterable<ContactSyncRow> | AsyncIterable<ContactSyncRow>, options?: ContactSyncOptions): ContactSyncRun {
    return syncContacts(this, rows, options);
  }
}
