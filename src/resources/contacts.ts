// Contact endpoints both variants share: get and update by id.
import type { ApiPromise } from '../core/results/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { RequestOptions } from '../core/call/options.js';
import type { Id } from '../schemas/common.js';
import { ContactSchema, type Contact } from '../schemas/contact.js';
import type { ContactUpdateParams } from '../schemas/contact-params.js';
import type { BodyEncoder } from '../core/call/call.js';
import { writingPhones, type ClientPhoneFormat } from './phones.js';
import * as z from 'zod/mini';

/** Contact list payload. */
export const ContactListSchema = /* @__PURE__ */ z.array(ContactSchema);

/** Contact endpoints that both variants share: get and update by id. */
export class ContactsResource {
  readonly #http: HttpClient;
  readonly #phone: BodyEncoder;

  /** @internal The clients create their resources. */
  constructor(http: HttpClient, phoneFormat: ClientPhoneFormat) {
    this.#http = http;
    this.#phone = writingPhones(['phone'], phoneFormat);
  }

  /** One contact by id (scope `contacts:read`). */
  get(id: Id, options?: RequestOptions): ApiPromise<Contact> {
    return this.#http.request({ method: 'GET', path: 'contacts/{id}', ids: [id], schema: ContactSchema }, options);
  }

  /** Updates some fields of a contact (scope `contacts:write`). */
  update(id: Id, body: ContactUpdateParams, options?: RequestOptions): ApiPromise<Contact> {
    return this.#http.request(
      { method: 'PUT', path: 'contacts/{id}', ids: [id], body, encodeBody: this.#phone, schema: ContactSchema },
      options,
    );
  }
}
