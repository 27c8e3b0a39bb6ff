// `client.webhooks` of Variant 2.
import type { ApiPromise } from '../core/call/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { ListRequestOptions, RequestOptions } from '../core/call/options.js';
import { paginate, type PagePromise } from '../core/call/pagination.js';
import { VARIANT2_ROUTES } from '../contract/routes.js';
import { callOf, listCallOf } from '../resources/route.js';
import type { WebhookEndpoint } from '../schemas/webhook-endpoint.js';
import type { WebhookEndpointCreateParams } from '../schemas/webhook-endpoint-params.js';

const LIST = /* @__PURE__ */ listCallOf(VARIANT2_ROUTES, 'listWebhooks');
const CREATE = /* @__PURE__ */ callOf(VARIANT2_ROUTES, 'createWebhook');

/** Variant 2 webhook endpoint registration (scope `webhooks:manage`). */
export class Variant2Webhooks {
  readonly #http: HttpClient;

  /** @internal The clients create their resources. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Lists registered endpoints, with their `active`/`disabled` status. */
  list(options?: ListRequestOptions): PagePromise<WebhookEndpoint> {
    return paginate(this.#http, LIST, options);
  }

  /** Registers an endpoint for some event kinds; `secret` signs the deliveries. */
  create(body: WebhookEndpointCreateParams, options?: RequestOptions): ApiPromise<WebhookEndpoint> {
    return this.#http.request({ ...CREATE, body }, options);
  }
}
