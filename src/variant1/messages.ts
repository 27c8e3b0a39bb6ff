// `client.messages` of Variant 1.
import type { ApiPromise } from '../core/call/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { RequestOptions } from '../core/call/options.js';
import type { BodyEncoder } from '../core/wire/call.js';
import { writingPhones, type ClientPhoneFormat } from '../resources/phones.js';
import { namingTemplateOf } from '../resources/sent-template.js';
import { VARIANT1_ROUTES } from '../contract/routes.js';
import { callOf } from '../resources/route.js';
import type { Message } from '../schemas/message.js';
import type { Variant1SendTemplateParams, Variant1SendTextParams } from '../schemas/message-params.js';

const SEND = /* @__PURE__ */ callOf(VARIANT1_ROUTES, 'sendMessage');
const SEND_TEMPLATE = /* @__PURE__ */ callOf(VARIANT1_ROUTES, 'sendTemplateMessage');
const STATUS = /* @__PURE__ */ callOf(VARIANT1_ROUTES, 'getMessageStatus');

/** Variant 1 message endpoints. */
export class Variant1Messages {
  readonly #http: HttpClient;
  readonly #to: BodyEncoder;

  /** @internal The clients create their resources. */
  constructor(http: HttpClient, phoneFormat: ClientPhoneFormat) {
    this.#http = http;
    this.#to = writingPhones(['to'], phoneFormat);
  }

  /** Sends a text message; never retried once it may have reached the service (scope `messages:send`). */
  send(body: Variant1SendTextParams, options?: RequestOptions): ApiPromise<Message> {
    return this.#http.request({ ...SEND, body, encodeBody: this.#to }, options);
  }

  /** Sends a template message (scope `messages:send`). */
  sendTemplate(body: Variant1SendTemplateParams, options?: RequestOptions): ApiPromise<Message> {
    return this.#http.request(
      {
        ...SEND_TEMPLATE,
        body,
        encodeBody: this.#to,
        completeMessage: namingTemplateOf(body),
      },
      options,
    );
  }

  /** Delivery status of a message (scope `messages:read`). */
  status(id: string, options?: RequestOptions): ApiPromise<Message> {
    return this.#http.request({ ...STATUS, ids: [id] }, options);
  }
}
