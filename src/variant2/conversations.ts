// `client.conversations` of Variant 2.
import type { ApiPromise } from '../core/call/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { ListRequestOptions, RequestOptions } from '../core/call/options.js';
import { paginate, type PagePromise } from '../core/call/pagination.js';
import { VARIANT2_ROUTES } from '../contract/routes.js';
import { callOf, listCallOf } from '../resources/route.js';
import type { Conversation, ConversationListParams, ConversationWithMessages } from '../schemas/conversation.js';

const LIST = /* @__PURE__ */ listCallOf(VARIANT2_ROUTES, 'listConversations');
const GET = /* @__PURE__ */ callOf(VARIANT2_ROUTES, 'getConversation');

/** Variant 2 conversation endpoints (scope `messages:read`). */
export class Variant2Conversations {
  readonly #http: HttpClient;

  /** @internal The clients create their resources. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Lists conversations, optionally by `status` and `assigned_to`. */
  list(params: ConversationListParams = {}, options?: ListRequestOptions): PagePromise<Conversation> {
    return paginate(this.#http, { ...LIST, query: params }, options);
  }

  /** One conversation with its messages. */
  get(id: string | number, options?: RequestOptions): ApiPromise<ConversationWithMessages> {
    return this.#http.request({ ...GET, ids: [id] }, options);
  }
}
