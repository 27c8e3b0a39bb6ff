// Routes of conversations (Variant 2).
import { VARIANT2_ENDPOINTS } from '../../contract/endpoints.js';
import { CONVERSATION_STATUSES } from '../../schemas/conversation.js';
import type { MockContext } from '../context.js';
import { notFound } from '../wire/http-error.js';
import type { Route } from '../rules/router.js';
import type { StoredConversation } from '../state/records.js';
import { pageOf, readEnum, readPagination } from '../rules/validate.js';
import { messageView } from './messages.js';

/** Conversation endpoints (Variant 2). */
export function conversationRoutes(ctx: MockContext): Route[] {
  return [
    {
      endpoint: VARIANT2_ENDPOINTS.listConversations,
      handle: ({ query }) => {
        const { page, perPage } = readPagination(query);
        const status = readEnum(query, 'status', CONVERSATION_STATUSES);
        const assignee = query.get('assigned_to');
        let conversations: readonly StoredConversation[] = ctx.store().conversations;
        if (status !== undefined || assignee !== null) {
          conversations = conversations.filter(
            (c) => (status === undefined || c.status === status) && (assignee === null || c.assigned_to === assignee),
          );
        }
        const { data, meta } = pageOf(conversations, page, perPage);
        return { data: data.map(conversationView), meta };
      },
    },
    {
      endpoint: VARIANT2_ENDPOINTS.getConversation,
      handle: ({ params }) => {
        const conversation = /^\d+$/.test(params.id!)
          ? ctx.store().conversations.find((c) => c.id === Number(params.id))
          : undefined;
        if (conversation === undefined) throw notFound('Conversation', params.id!);
        const messages = conversation.message_ids.map((id) => messageView(ctx.store().messages.get(id)!, 2));
        return { data: { ...conversationView(conversation), messages } };
      },
    },
  ];
}

function conversationView({ message_ids: _ids, ...conversation }: StoredConversation) {
  return conversation;
}
