// `client.contacts` of Variant 1.
import type { ApiPromise } from '../core/results/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { ListRequestOptions, RequestOptions } from '../core/call/options.js';
import { paginate, type PagePromise } from '../core/results/pagination.js';
import { ContactsResource, ContactListSchema } from '../resources/contacts.js';
import { ContactSchema, type Contact } from '../schemas/contact.js';
import type { ContactCreateParams, Variant1ContactListParams } from '../schemas/contact-params.js';

/** Variant 1 contact endpoints. */
export class Variant1Contacts extends ContactsResource {
  readonly #http: HttpClient;

  /** @internal The clients create their resources. */
  constructor(http: HttpClient) {
    super(http);
    this.#http = http;
  }

  /** Lists contacts, page by page (scope `contacts:read`). */
  list(params: Variant1ContactListParams = {}, options?: ListRequestOptions): PagePromise<Contact> {
    return paginate(this.#http, { method: 'GET', path: 'contacts', query: params, schema: ContactListSchema }, options);
  }

  /** Creates a contact with `POST /contacts/create` (scope `contacts:write`). */
  create(body: ContactCreateParams, options?: RequestOptions): ApiPromise<Contact> {
    return this.#http.request(
      { method: 'POST', path: 'contacts/create', body, phones: ['phone'], schema: ContactSchema },
      options,
    );
  }
}
