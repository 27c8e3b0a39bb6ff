// `client.contacts` of Variant 1.
import type { ApiPromise } from '../core/call/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { ListRequestOptions, RequestOptions } from '../core/call/options.js';
import { paginate, type PagePromise } from '../core/call/pagination.js';
import { VARIANT1_ROUTES } from '../contract/routes.js';
import { ContactsResource } from '../resources/contacts.js';
import { callOf, listCallOf } from '../resources/route.js';
import type { BodyEncoder } from '../core/wire/call.js';
import { writingPhones, type ClientPhoneFormat } from '../resources/phones.js';
import type { Contact } from '../schemas/contact.js';
import type { ContactCreateParams, Variant1ContactListParams } from '../schemas/contact-params.js';
import { syncContacts } from '../contacts-sync/sync.js';
import type { ContactSyncOptions, ContactSyncRow, ContactSyncRun } from '../contacts-sync/types.js';

const LIST = /* @__PURE__ */ listCallOf(VARIANT1_ROUTES, 'listContacts');
const CREATE = /* @__PURE__ */ callOf(VARIANT1_ROUTES, 'createContact');

/** Variant 1 contact endpoints. */
export class Variant1Contacts extends ContactsResource {
  readonly #http: HttpClient;
  readonly #phone: BodyEncoder;

  /** @internal The clients create their resources. */
  constructor(http: HttpClient, phoneFormat: ClientPhoneFormat) {
    super(http, phoneFormat);
    this.#http = http;
    this.#phone = writingPhones(['phone'], phoneFormat);
  }

  /** Lists contacts, page by page (scope `contacts:read`). */
  list(params: Variant1ContactListParams = {}, options?: ListRequestOptions): PagePromise<Contact> {
    return paginate(this.#http, { ...LIST, query: params }, options);
  }

  /** Creates a contact with `POST /contacts/create` (scope `contacts:write`). */
  create(body: ContactCreateParams, options?: RequestOptions): ApiPromise<Contact> {
    return this.#http.request({ ...CREATE, body, encodeBody: this.#phone }, options);
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
