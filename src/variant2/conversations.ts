// `client.conversations` of Variant 2.
import * as z from 'zod/mini';
import type { ApiPromise } from '../core/results/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { ListRequestOptions, RequestOptions } from '../core/call/options.js';
import { paginate, type PagePromise } from '../core/results/pagination.js';
import type { Id } from '../schemas/common.js';
import {
  ConversationSchema,
  ConversationWithMessagesSchema,
  type Conversation,
  type ConversationListParams,
  type ConversationWithMessages,
} from '../schemas/conversation.js';

const ConversationListSchema = /* @__PURE__ */ z.array(ConversationSchema);

/** Variant 2 conversation endpoints (scope `messages:read`). */
export class Variant2Conversations {
  readonly #http: HttpClient;

  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Lists conversations, optionally by `status` and `assigned_to`. */
  list(params: ConversationListParams = {}, options?: ListRequestOptions): PagePromise<Conversation> {
    return paginate(
      this.#http,
      { method: 'GET', path: 'conversations', query: params, schema: ConversationListSchema },
      options,
    );
  }

  /** One conversation with its messages. */
  get(id: Id, options?: RequestOptions): ApiPromise<ConversationWithMessages> {
    return this.#http.request(
      { method: 'GET', path: 'conversations/{id}', ids: [id], schema: ConversationWithMessagesSchema },
      options,
    );
  }
}
