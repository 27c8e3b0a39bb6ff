// `client.messages` of Variant 1.
import type { ApiPromise } from '../core/results/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { RequestOptions } from '../core/call/options.js';
import type { BodyEncoder } from '../core/call/call.js';
import { writingPhones, type ClientPhoneFormat } from '../resources/phones.js';
import { namingTemplateOf } from '../resources/sent-template.js';
import { MessageSchema, type Message } from '../schemas/message.js';
import type { Variant1SendTemplateParams, Variant1SendTextParams } from '../schemas/message-params.js';

/** Variant 1 message endpoints. */
export class Variant1Messages {
  readonly #http: HttpClient;
  readonly #to: BodyEncoder;

  constructor(http: HttpClient, phoneFormat: ClientPhoneFormat) {
    this.#http = http;
    this.#to = writingPhones(['to'], phoneFormat);
  }

  /** Sends a text message; never retried once it may have reached the service (scope `messages:send`). */
  send(body: Variant1SendTextParams, options?: RequestOptions): ApiPromise<Message> {
    return this.#http.request(
      { method: 'POST', path: 'messages/send', body, encodeBody: this.#to, schema: MessageSchema },
      options,
    );
  }

  /** Sends a template message (scope `messages:send`). */
  sendTemplate(body: Variant1SendTemplateParams, options?: RequestOptions): ApiPromise<Message> {
    return this.#http.request(
      {
        method: 'POST',
        path: 'messages/template',
        body,
        encodeBody: this.#to,
        completeMessage: namingTemplateOf(body),
        schema: MessageSchema,
      },
      options,
    );
  }

  /** Delivery status of a message (scope `messages:read`). */
  status(id: string, options?: RequestOptions): ApiPromise<Message> {
    return this.#http.request(
      { method: 'GET', path: 'messages/{id}/status', ids: [id], schema: MessageSchema },
      options,
    );
  }
}
