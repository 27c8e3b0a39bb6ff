// `client.messages` of Variant 2.
import { ApiPromise } from '../core/call/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { RequestOptions } from '../core/call/options.js';
import { paramsError } from '../core/call/request-body.js';
import type { BodyEncoder } from '../core/wire/call.js';
import { writingPhones, type ClientPhoneFormat } from '../resources/phones.js';
import { namingTemplateOf } from '../resources/sent-template.js';
import { VARIANT2_ROUTES } from '../contract/routes.js';
import { callOf } from '../resources/route.js';
import type { Message } from '../schemas/message.js';
import { isRecord } from '../shared/guards.js';
import type { TemplateContent, Variant2SendMessageParams } from '../schemas/message-params.js';

const SEND = /* @__PURE__ */ callOf(VARIANT2_ROUTES, 'sendMessage');

/** `messages.sendText` parameters: a text message's body, its fields side by side. */
export interface Variant2SendTextParams {
  /** The recipient's phone number, international or in the client's `phoneFormat` (shown in the spec). */
  to: string;
  /** Id of the messaging account the message goes out from, an integer (shown in the spec). */
  messaging_account_id: number;
  /** The message's text, not empty (shown in the spec as `content.body`). */
  body: string;
}
/** `messages.sendTemplate` parameters: a template message's body, its fields side by side. */
export interface Variant2SendTemplateParams extends TemplateContent {
  /** The recipient's phone number, international or in the client's `phoneFormat` (shown in the spec). */
  to: string;
  /** Id of the messaging account the message goes out from, an integer (shown in the spec). */
  messaging_account_id: number;
}
/** Variant 2 message endpoints. */
export class Variant2Messages {
  readonly #http: HttpClient;
  readonly #to: BodyEncoder;

  /** @internal The clients create their resources. */
  constructor(http: HttpClient, phoneFormat: ClientPhoneFormat) {
    this.#http = http;
    this.#to = writingPhones(['to'], phoneFormat);
  }

  /** Sends a text or template message; never retried once it may have reached the service (scope `messages:send`). */
  send(body: Variant2SendMessageParams, options?: RequestOptions): ApiPromise<Message> {
    const completeMessage = isRecord(body) && body.type === 'template' ? namingTemplateOf(body.content) : undefined;
    return this.#http.request({ ...SEND, body, encodeBody: this.#to, completeMessage }, options);
  }

  /** Sends a text message. */
  sendText(params: Variant2SendTextParams, options?: RequestOptions): ApiPromise<Message> {
    const invalid = paramsError(params, 'messages.sendText');
    if (invalid !== undefined) return ApiPromise.reject(invalid);
    const { to, messaging_account_id, body } = params;
    return this.send({ to, messaging_account_id, type: 'text', content: { body } }, options);
  }

  /** Sends a template message. */
  sendTemplate(params: Variant2SendTemplateParams, options?: RequestOptions): ApiPromise<Message> {
    const invalid = paramsError(params, 'messages.sendTemplate');
    if (invalid !== undefined) return ApiPromise.reject(invalid);
    const { to, messaging_account_id, name, language, components } = params;
    return this.send({ to, messaging_account_id, type: 'template', content: { name, language, components } }, options);
  }
}
