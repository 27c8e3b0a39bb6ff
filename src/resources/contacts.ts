// Contact endpoints both variants share: get and update by id.
import type { ApiPromise } from '../core/call/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { RequestOptions } from '../core/call/options.js';
import { COMMON_ROUTES } from '../contract/routes.js';
import type { Contact } from '../schemas/contact.js';
import { callOf } from './route.js';
import type { ContactUpdateParams } from '../schemas/contact-params.js';
import type { BodyEncoder } from '../core/wire/call.js';
import { writingPhones, type ClientPhoneFormat } from './phones.js';

/** The get and update of a contact by id, the same routes in both variants. */
const GET = /* @__PURE__ */ callOf(COMMON_ROUTES, 'getContact');
const UPDATE = /* @__PURE__ */ callOf(COMMON_ROUTES, 'updateContact');

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
  get(id: string | number, options?: RequestOptions): ApiPromise<Contact> {
    return this.#http.request({ ...GET, ids: [id] }, options);
  }

  /** Updates some fields of a contact (scope `contacts:write`). */
  update(id: string | number, body: ContactUpdateParams, options?: RequestOptions): ApiPromise<Contact> {
    return this.#http.request({ ...UPDATE, ids: [id], body, encodeBody: this.#phone }, options);
  }
}
