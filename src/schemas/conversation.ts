// A conversation, with or without its messages, and the query of a list (Variant 2).
import * as z from 'zod/mini';
import { expected, IdSchema, openEnum, type OpenEnum } from './common.js';
import { MessageSchema, type Message } from './message.js';

/** Conversation statuses of the spec. */
export const CONVERSATION_STATUSES = ['open', 'closed', 'pending'] as const;
/** A conversation status as a filter accepts it. */
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/**
 * The fields of a conversation as listed, shared by both schemas below: spread into the second
 * rather than `z.extend`ed, whose checks and messages the clients would carry for this one use
 * (~370 bytes min+gzip, figure 1).
 */
const ConversationFields = {
  id: IdSchema,
  status: openEnum(CONVERSATION_STATUSES),
  assigned_to: expected(z.nullable(z.string())),
  phone: expected(z.nullable(z.string())),
  created_at: expected(z.nullable(z.string())),
  updated_at: expected(z.nullable(z.string())),
};

/** A conversation as listed. */
export const ConversationSchema = /* @__PURE__ */ z.looseObject(ConversationFields);
/** A conversation as listed (Variant 2). */
export interface Conversation {
  /** The conversation's id. */
  id: string | number;
  /** Its status: open, closed or pending. */
  status: OpenEnum<ConversationStatus>;
  /** Who it is assigned to (guessed: may be missing). */
  assigned_to?: string | null | undefined;
  /** The contact's phone number (guessed: may be missing). */
  phone?: string | null | undefined;
  /** When it was created, as the service wrote the time (guessed: may be missing). */
  created_at?: string | null | undefined;
  /** When it last changed, as the service wrote the time (guessed: may be missing). */
  updated_at?: string | null | undefined;
}

/** A conversation with its messages, as `GET /conversations/{id}` returns it. */
export const ConversationWithMessagesSchema = /* @__PURE__ */ z.looseObject({
  ...ConversationFields,
  messages: z.array(MessageSchema),
});
/** A conversation with its messages, as `GET /conversations/{id}` returns it. */
export interface ConversationWithMessages extends Conversation {
  /** Its messages (their field not shown by the spec: always there, as the method promises them). */
  messages: Message[];
}

/** Query of a conversation list. */
export interface ConversationListParams {
  /** Only conversations in this status. */
  status?: ConversationStatus | undefined;
  /** Only conversations assigned to this agent. */
  assigned_to?: string | undefined;
  /** The page to start from, from 1 (default 1); a walk with `for await` goes on from it. */
  page?: number | undefined;
  /** Conversations a page holds (the service's default when left out). */
  per_page?: number | undefined;
}
