// `client.webhooks` of Variant 2.
import * as z from 'zod/mini';
import type { ApiPromise } from '../core/results/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { ListRequestOptions, RequestOptions } from '../core/call/options.js';
import { paginate, type PagePromise } from '../core/results/pagination.js';
import { WebhookEndpointSchema, type WebhookEndpoint } from '../schemas/webhook-endpoint.js';
import type { WebhookEndpointCreateParams } from '../schemas/webhook-endpoint-params.js';

const WebhookEndpointListSchema = /* @__PURE__ */ z.array(WebhookEndpointSchema);

/** Variant 2 webhook endpoint registration (scope `webhooks:manage`). */
export class Variant2Webhooks {
  readonly #http: HttpClient;

  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Lists registered endpoints, with their `active`/`disabled` status. */
  list(options?: ListRequestOptions): PagePromise<WebhookEndpoint> {
    return paginate(this.#http, { method: 'GET', path: 'webhooks', schema: WebhookEndpointListSchema }, options);
  }

  /** Registers an endpoint for some event kinds; `secret` signs the deliveries. */
  create(body: WebhookEndpointCreateParams, options?: RequestOptions): ApiPromise<WebhookEndpoint> {
    return this.#http.request({ method: 'POST', path: 'webhooks', body, schema: WebhookEndpointSchema }, options);
  }
}
