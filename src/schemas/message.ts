// A message, as the service returns it (its id under `id` or `message_id`, or where real services put it).
import * as z from 'zod/mini';
import { expected, IdSchema, maybe, needed, openEnum, type OpenEnum, int } from './common.js';

/** Message statuses of the spec; `received` is the status of inbound messages. */
export const MESSAGE_STATUSES = ['sent', 'delivered', 'read', 'failed', 'received'] as const;
/** A message status. */
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Which way a message went: sent by the business, or received from a contact. */
export const MESSAGE_DIRECTIONS = ['outbound', 'inbound'] as const;

/** Fields of a message as returned; the id arrives as `id` or `message_id`. */
const MessageFields = /* @__PURE__ */ z.looseObject({
  id: needed(z.string()),
  message_id: needed(z.string()),
  status: expected(openEnum(MESSAGE_STATUSES)),
  direction: expected(openEnum(MESSAGE_DIRECTIONS)),
  messaging_account_id: expected(int()),
  campaign_id: z.optional(IdSchema),
  to: expected(z.nullable(z.string())),
  from: expected(z.nullable(z.string())),
  type: expected(z.nullable(z.string())),
  content: expected(z.unknown()),
  conversation_id: expected(IdSchema),
  created_at: expected(z.nullable(z.string())),
  delivered_at: maybe(z.string()),
  read_at: maybe(z.string()),
  failed_at: maybe(z.string()),
});

/**
 * A message as the service returns it, with its id always under `id`. A check that writes the id
 * rather than a pipe into a transform: the same reading, run once the fields read, without the two
 * schema kinds in the clients (~270 bytes min+gzip, figure 1); the type says what the check makes.
 */
export const MessageSchema = /* @__PURE__ */ MessageFields.check(
  z.check((payload) => {
    const message = payload.value;
    // An empty id names no message: it could never be looked up, so it is no id.
    const id = message.id || message.message_id || knownIdOf(message);
    if (id === undefined || id === '')
      payload.issues.push({ code: 'custom', message: 'Expected a message id in `id` or `message_id`', input: message });
    else payload.value = { ...message, id };
  }),
) as z.ZodMiniType<z.output<typeof MessageFields> & { id: string }, z.input<typeof MessageFields>>;
/**
 * A message id where real services are known to put it: `messages[0].id` (WhatsApp Cloud API's
 * send answer) or `sid` (Twilio). Those fields stay as they came, and the drift check reports them.
 */
function knownIdOf(message: Record<string, unknown>): string | undefined {
  const { sid, messages } = message;
  const id = Array.isArray(messages) ? (messages[0] as { id?: unknown } | undefined)?.id : sid;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** A message as the service returns it (send result, status, conversation history). */
export interface Message {
  /** The message's id, from `id`, `message_id` or where real services put it (its name not shown by the spec: always there, as the method promises it). */
  id: string;
  /** The message's id when the service named it `message_id`; read `id` instead (guessed: may be missing). */
  message_id?: string | undefined;
  /** Where the message is: sent, delivered, read, failed, or received for an inbound one (guessed: may be missing). */
  status?: OpenEnum<MessageStatus> | undefined;
  /** `outbound` for a message the business sent, `inbound` for one a contact sent (guessed: may be missing). */
  direction?: OpenEnum<'outbound' | 'inbound'> | undefined;
  /** The id of the messaging account that sent or received it (guessed: may be missing). */
  messaging_account_id?: number | undefined;
  /** The id of the campaign that sent it (guessed: may be missing). */
  campaign_id?: string | number | undefined;
  /** The phone number it was sent to (guessed: may be missing). */
  to?: string | null | undefined;
  /** The phone number it was sent from (guessed: may be missing). */
  from?: string | null | undefined;
  /** Its kind, as `text` or `template` (guessed: may be missing). */
  type?: string | null | undefined;
  /** Its content as the service gives it, as `{ body }` for a text (guessed: may be missing). */
  content?: unknown;
  /** The id of the conversation it belongs to (guessed: may be missing). */
  conversation_id?: string | number | undefined;
  /** When it was created, as the service wrote the time (guessed: may be missing). */
  created_at?: string | null | undefined;
  /** When it was delivered, as the service wrote the time; absent until then. */
  delivered_at?: string | null | undefined;
  /** When it was read, as the service wrote the time (guessed: may be missing). */
  read_at?: string | null | undefined;
  /** When it failed, as the service wrote the time (guessed: may be missing). */
  failed_at?: string | null | undefined;
}
