// `client.contacts` of Variant 2.
import type { ApiPromise } from '../core/results/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { ListRequestOptions, RequestOptions } from '../core/call/options.js';
import { paginate, type PagePromise } from '../core/results/pagination.js';
import { ContactsResource, ContactListSchema } from '../resources/contacts.js';
import type { Id } from '../schemas/common.js';
import { ContactSchema, DeleteResultSchema, type Contact, type DeleteResult } from '../schemas/contact.js';
import type { ContactCreateParams, Variant2ContactListParams } from '../schemas/contact-params.js';

/** Variant 2 contact endpoints. */
export class Variant2Contacts extends ContactsResource {
  readonly #http: HttpClient;

  /** @internal The clients create their resources. */
  constructor(http: HttpClient) {
    super(http);
    this.#http = http;
  }

  /** Lists contacts, optionally filtered by `search` text or a `tag` (scope `contacts:read`). */
  list(params: Variant2ContactListParams = {}, options?: ListRequestOptions): PagePromise<Contact> {
    return paginate(this.#http, { method: 'GET', path: 'contacts', query: params, schema: ContactListSchema }, options);
  }

  /** Creates a contact (scope `contacts:write`). */
  create(body: ContactCreateParams, options?: RequestOptions): ApiPromise<Contact> {
    return this.#http.request({ method: 'POST', path: 'contacts', body, schema: ContactSchema }, options);
  }

  /** Deletes a contact; an empty answer reads as `{ id, deleted: true }` (scope `contacts:write`). */
  delete(id: Id, options?: RequestOptions): ApiPromise<DeleteResult> {
    const map = (result: DeleteResult | undefined) => result ?? { id, deleted: true };
    return this.#http.request(
      { method: 'DELETE', path: 'contacts/{id}', ids: [id], schema: DeleteResultSchema, map },
      options,
    );
  }
}
