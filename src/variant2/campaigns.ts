// `client.campaigns` of Variant 2.
import * as z from 'zod/mini';
import type { ApiPromise } from '../core/results/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { ListRequestOptions, RequestOptions } from '../core/call/options.js';
import { paginate, type PagePromise } from '../core/results/pagination.js';
import { CampaignSchema, type Campaign } from '../schemas/campaign.js';
import type { CampaignCreateParams } from '../schemas/campaign-params.js';
import { namingTemplate } from '../resources/sent-template.js';
import { isRecord } from '../shared/guards.js';

const CampaignListSchema = /* @__PURE__ */ z.array(CampaignSchema);

/** Variant 2 campaign endpoints. */
export class Variant2Campaigns {
  readonly #http: HttpClient;

  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Lists campaigns (scope `messages:read`). */
  list(options?: ListRequestOptions): PagePromise<Campaign> {
    return paginate(this.#http, { method: 'GET', path: 'campaigns', schema: CampaignListSchema }, options);
  }

  /** Schedules a campaign; `scheduled_at` is an ISO 8601 UTC timestamp (scope `messages:send`). */
  create(body: CampaignCreateParams, options?: RequestOptions): ApiPromise<Campaign> {
    const completeMessage = isRecord(body) ? namingTemplate({ name: body.template_name }) : undefined;
    return this.#http.request(
      { method: 'POST', path: 'campaigns', body, completeMessage, schema: CampaignSchema },
      options,
    );
  }
}
