// `client.messages` of Variant 1.
import type { ApiPromise } from '../core/results/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { RequestOptions } from '../core/call/options.js';
import { sentTemplate } from '../resources/sent-template.js';
import { MessageSchema, type Message } from '../schemas/message.js';
import type { Variant1SendTemplateParams, Variant1SendTextParams } from '../schemas/message-params.js';

/** Variant 1 message endpoints. */
export class Variant1Messages {
  readonly #http: HttpClient;

  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Sends a text message; never retried once it may have reached the service (scope `messages:send`). */
  send(body: Variant1SendTextParams, options?: RequestOptions): ApiPromise<Message> {
    return this.#http.request(
      { method: 'POST', path: 'messages/send', body, phones: ['to'], schema: MessageSchema },
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
        phones: ['to'],
        template: sentTemplate(body),
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
