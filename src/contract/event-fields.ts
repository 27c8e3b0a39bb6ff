// Which fields of each webhook event the spec shows and which are bizmsg's guesses (as fields.ts
// does for answers): the schema of each kind, and the marks of its envelope and its `data`.
import type { ZodMiniType } from 'zod/mini';
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from '../schemas/webhook-endpoint.js';
import { WebhookEventSchema } from '../schemas/webhook-event.js';
import { fieldMarks, type FieldMark } from './fields.js';

/** The schema of each event kind (one option of the union), by kind. */
export const EVENT_SCHEMAS: ReadonlyMap<WebhookEventKind, ZodMiniType> = /* @__PURE__ */ eventSchemas();

function eventSchemas(): Map<WebhookEventKind, ZodMiniType> {
  // Each option of the union knows the one value its `event` literal takes.
  const options = WebhookEventSchema._zod.def.options as readonly ZodMiniType[];
  return new Map(options.map((option) => [[...option._zod.propValues!.event!][0] as WebhookEventKind, option]));
}

/** The schema of an event's `data`. */
export function eventDataSchema(kind: WebhookEventKind): ZodMiniType {
  return (EVENT_SCHEMAS.get(kind)!._zod.def as unknown as { shape: { data: ZodMiniType } }).shape.data;
}

/** Every delivery (spec section 6): `{ event, timestamp, data }`. */
const ENVELOPE = { event: 'shown', timestamp: 'shown', data: 'shown' } as const satisfies Record<string, FieldMark>;

/** What bizmsg guesses every message event carries (the spec shows it for `message.delivered` only). */
const MESSAGE = {
  message_id: 'guessed',
  to: 'guessed',
  status: 'guessed',
  conversation_id: 'guessed?',
} as const satisfies Record<string, FieldMark>;

/** The contact an event carries: the record `contacts.get` answers, none of it shown for events. */
const CONTACT = {
  id: 'guessed',
  name: 'guessed?',
  phone: 'guessed?',
  email: 'guessed?',
  tags: 'guessed?',
  custom_fields: 'guessed?',
  created_at: 'guessed?',
  updated_at: 'guessed?',
} as const satisfies Record<string, FieldMark>;

/** The marks of each kind's `data`. Only `message.delivered`'s are shown (spec section 6). */
export const EVENT_DATA_MARKS: Readonly<Record<WebhookEventKind, Readonly<Record<string, FieldMark>>>> = {
  'message.received': { ...MESSAGE, to: 'guessed?', from: 'guessed', body: 'guessed?' },
  'message.sent': MESSAGE,
  'message.delivered': {
    message_id: 'shown',
    to: 'shown',
    status: 'shown',
    delivered_at: 'shown',
    conversation_id: 'guessed?',
  },
  'message.read': { ...MESSAGE, delivered_at: 'guessed?', read_at: 'guessed?' },
  'message.failed': { ...MESSAGE, failed_at: 'guessed?', error: 'guessed?' },
  'conversation.created': { conversation_id: 'guessed', phone: 'guessed?' },
  'conversation.closed': { conversation_id: 'guessed', phone: 'guessed?' },
  'contact.created': CONTACT,
  'contact.updated': { ...CONTACT, changed: 'guessed?' },
  'campaign.completed': { campaign_id: 'guessed', name: 'guessed?', sent_count: 'guessed?', completed_at: 'guessed?' },
};

/** The marks of every event's envelope and `data`, for the drift check. */
export const EVENT_MARKS = /* @__PURE__ */ fieldMarks(
  WEBHOOK_EVENT_KINDS.flatMap((kind) => [
    [EVENT_SCHEMAS.get(kind)!, ENVELOPE],
    [eventDataSchema(kind), EVENT_DATA_MARKS[kind]],
  ]),
);
