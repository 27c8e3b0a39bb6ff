// `client.campaigns` of Variant 2.
import type { ApiPromise } from '../core/call/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { ListRequestOptions, RequestOptions } from '../core/call/options.js';
import { paginate, type PagePromise } from '../core/call/pagination.js';
import { VARIANT2_ROUTES } from '../contract/routes.js';
import { callOf, listCallOf } from '../resources/route.js';
import type { Campaign } from '../schemas/campaign.js';
import type { CampaignCreateParams } from '../schemas/campaign-params.js';
import { namingTemplate } from '../resources/sent-template.js';
import { isRecord } from '../shared/guards.js';

const LIST = /* @__PURE__ */ listCallOf(VARIANT2_ROUTES, 'listCampaigns');
const CREATE = /* @__PURE__ */ callOf(VARIANT2_ROUTES, 'createCampaign');

/** Variant 2 campaign endpoints. */
export class Variant2Campaigns {
  readonly #http: HttpClient;

  /** @internal The clients create their resources. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Lists campaigns (scope `messages:read`). */
  list(options?: ListRequestOptions): PagePromise<Campaign> {
    return paginate(this.#http, LIST, options);
  }

  /** Schedules a campaign; `scheduled_at` is an ISO 8601 UTC timestamp (scope `messages:send`). */
  create(body: CampaignCreateParams, options?: RequestOptions): ApiPromise<Campaign> {
    const completeMessage = isRecord(body) ? namingTemplate({ name: body.template_name }) : undefined;
    return this.#http.request({ ...CREATE, body, completeMessage }, options);
  }
}
