// A conversation with one customer as a test reads it: each message as who wrote it and its text
// (a template as its name and parameters), and the transcript that prints one line a message.
import * as z from 'zod/mini';
import { MESSAGE_STATUSES } from '../../schemas/message.js';
import type { StoredMessage } from '../state/records.js';
import type { MockStore } from '../state/store.js';

/** One message between a customer and the app, as `say`, `transcript` and `lastReply` give it. */
export interface CustomerMessage {
  /** Who wrote it: `'customer'` (an inbound message) or `'app'` (one the app sent to the customer). */
  from: 'customer' | 'app';
  /**
   * What it says: a text's body; a template as `[template appointment_reminder: Ada, 10:00]` (its
   * name, then the text of each parameter, header, body and buttons in the order sent; a parameter
   * of another kind as `<image>`, `<currency>`…), or `[template welcome]` without parameters.
   */
  text: string;
  /** The message's id in the mock (`msg_3`), as `setMessageStatus` and the API take it. */
  id: string;
  /** `'received'` for the customer's; `'sent'`, `'delivered'`, `'read'` or `'failed'` for the app's. */
  status: StoredMessage['status'];
  /** When it was written: the mock's virtual clock, in ms since the epoch (as every `at` of the mock). */
  at: number;
}

/**
 * A conversation with a customer, both ways, oldest first. `String(transcript)` prints one line a
 * message, `customer: YES` or `app: Your appointment is confirmed`, for assertions and their
 * failure messages (a line break inside a message is written `\n`, so each stays on one line).
 */
export interface Transcript extends ReadonlyArray<CustomerMessage> {
  /** One line a message, `customer: …` or `app: …`, joined by line breaks; `''` when there is none. */
  toString(): string;
}

/** A `CustomerMessage` as JSON carries it (the control API's answers and document). */
export const CustomerMessageSchema = /* @__PURE__ */ z.object({
  from: z.enum(['customer', 'app']),
  text: z.string(),
  id: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  at: z.number(),
});

/** The messages of the conversation with `phone` (any form the store keys it by), oldest first. */
export function conversationMessages(store: MockStore, phone: string): StoredMessage[] {
  const conversation = store.conversationWith(phone);
  if (conversation === undefined) return [];
  // A message the store forgot (past its bound) is no longer listed.
  return conversation.message_ids.flatMap((id) => store.messages.get(id) ?? []);
}

/** How a test reads a stored message. */
export function customerMessageOf(message: StoredMessage): CustomerMessage {
  return {
    from: message.direction === 'inbound' ? 'customer' : 'app',
    text: message.type === 'template' ? templateText(message.content) : textOf(message.content.body),
    id: message.id,
    status: message.status,
    at: Date.parse(message.created_at),
  };
}

/** `messages` as a transcript: the same entries, with the `toString` that prints them. */
export function transcriptOf(messages: readonly CustomerMessage[]): Transcript {
  const transcript = [...messages];
  // Not enumerable: the transcript still equals an array of its messages (`toEqual`), and copies as one.
  Object.defineProperty(transcript, 'toString', { value: printTranscript, enumerable: false });
  return transcript;
}

function printTranscript(this: readonly CustomerMessage[]): string {
  return this.map(({ from, text }) => `${from}: ${text.replace(/\r\n|\r|\n/g, '\\n')}`).join('\n');
}

/** A text message's body; the mock stores a string, anything else reads as JSON. */
function textOf(body: unknown): string {
  return typeof body === 'string' ? body : JSON.stringify(body ?? '');
}

/** A template message as one line: its name and the text of each parameter. */
function templateText(content: Record<string, unknown>): string {
  const name = textOf(content.name);
  const components = Array.isArray(content.components) ? (content.components as unknown[]) : [];
  const values = components.flatMap((component) => {
    const parameters = (component as { parameters?: unknown } | null)?.parameters;
    return Array.isArray(parameters) ? parameters.map(parameterText) : [];
  });
  return values.length === 0 ? `[template ${name}]` : `[template ${name}: ${values.join(', ')}]`;
}

/** A template parameter as text: its `text` or `payload`, else its kind (`<image>`). */
function parameterText(parameter: unknown): string {
  const { type, text, payload } = (parameter ?? {}) as { type?: unknown; text?: unknown; payload?: unknown };
  if (typeof text === 'string') return text;
  if (typeof payload === 'string') return payload;
  return `<${typeof type === 'string' ? type : 'parameter'}>`;
}
