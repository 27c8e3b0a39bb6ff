// Which fields of the service's answers the spec shows and which are bizmsg's guesses: the one home
// of that fact. The schemas follow it (test/contract/fields.test.ts holds them to it: a field is
// required in the types only when it is `shown` or `promised`), and so do the OpenAPI documents,
// the docs and the drift check (`drift.ts`), which reports a field marked as always there when it is not.
import type { ZodMiniType } from 'zod/mini';
import { AccountSchema } from '../schemas/account.js';
import { AutomationRunSchema } from '../schemas/automation.js';
import { CampaignSchema } from '../schemas/campaign.js';
import { ListMetaSchema } from '../schemas/common.js';
import { ContactSchema, DeleteResultSchema } from '../schemas/contact.js';
import { ConversationSchema, ConversationWithMessagesSchema } from '../schemas/conversation.js';
import { MessageSchema } from '../schemas/message.js';
import { WebhookEndpointSchema } from '../schemas/webhook-endpoint.js';

/**
 * How bizmsg knows a field of an answer or an event:
 * - `shown`: the spec shows it, always there; required in the types.
 * - `shown?`: the spec shows it, not always there.
 * - `guessed`: the spec does not show it; bizmsg guesses it is always there (its mock always sends
 *   it). Optional in the types, and reported missing when it is not there.
 * - `guessed?`: the spec does not show it, and it may be absent.
 * - `promised`: the spec does not show it, yet the method cannot give what it promises without it
 *   (the id of a record it creates or fetches, a conversation's messages): required in the types.
 */
export type FieldMark = 'shown' | 'shown?' | 'guessed' | 'guessed?' | 'promised';

/** The marks of each object's fields, by the object's zod schema. */
export type FieldMarks = ReadonlyMap<ZodMiniType, Readonly<Record<string, FieldMark>>>;

/** True for a field expected in every answer or event of its kind. */
export function isAlways(mark: FieldMark | undefined): boolean {
  return mark !== undefined && !mark.endsWith('?');
}

/** True for a field required in the types: shown and always there, or promised. */
export function isRequired(mark: FieldMark): boolean {
  return mark === 'shown' || mark === 'promised';
}

/** The object schema under optional wrappers and pipes: the one whose fields are marked. */
export function objectOf(schema: ZodMiniType): ZodMiniType {
  const def = schema._zod.def as unknown as { type: string; innerType?: ZodMiniType; in?: ZodMiniType };
  if (def.type === 'optional') return objectOf(def.innerType!);
  return def.type === 'pipe' ? objectOf(def.in!) : schema;
}

/** A `FieldMarks` from schemas (each looked through to its object) and their fields' marks. */
/* @__NO_SIDE_EFFECTS__ */
export function fieldMarks(
  entries: ReadonlyArray<readonly [ZodMiniType, Readonly<Record<string, FieldMark>>]>,
): FieldMarks {
  return new Map(entries.map(([schema, marks]) => [objectOf(schema), marks]));
}

/** The contact resource (spec section 2): the input fields and the id are shown, nothing beyond. */
const CONTACT = {
  id: 'shown',
  name: 'shown?',
  phone: 'shown',
  email: 'shown?',
  tags: 'shown?',
  custom_fields: 'shown?',
  created_at: 'guessed',
  updated_at: 'guessed',
} as const satisfies Record<string, FieldMark>;

/** The list `meta` (spec section 2, both variants). */
const META = {
  current_page: 'shown',
  per_page: 'shown',
  total: 'shown',
  last_page: 'shown',
} as const satisfies Record<string, FieldMark>;

/**
 * A message as an answer gives it. The spec shows that it has an id (`msg_<id>`) and that a
 * delivered one carries `delivered_at`; its field names are not shown, so the id is read from
 * `id` or `message_id` (one of them is promised: the schema asks for either).
 */
const MESSAGE = {
  id: 'guessed?',
  message_id: 'guessed?',
  status: 'guessed',
  direction: 'guessed',
  messaging_account_id: 'guessed',
  campaign_id: 'guessed?',
  to: 'guessed',
  from: 'guessed',
  type: 'guessed',
  content: 'guessed',
  conversation_id: 'guessed',
  created_at: 'guessed',
  delivered_at: 'shown?',
  read_at: 'guessed?',
  failed_at: 'guessed?',
} as const satisfies Record<string, FieldMark>;

/** A conversation (spec section 2, Variant 2): its id is in the paths, its status one of three; the rest is guessed. */
const CONVERSATION = {
  id: 'shown',
  status: 'shown',
  assigned_to: 'guessed',
  phone: 'guessed',
  created_at: 'guessed',
  updated_at: 'guessed',
} as const satisfies Record<string, FieldMark>;

/**
 * What bizmsg reads of each answer of the service: the spec shows the envelope, the list `meta`
 * and the contact's fields; Variant 2's bodies and the other records are guesses.
 */
export const RECORD_MARKS: FieldMarks = /* @__PURE__ */ fieldMarks([
  [ListMetaSchema, META],
  [ContactSchema, CONTACT],
  [MessageSchema, MESSAGE],
  [ConversationSchema, CONVERSATION],
  // "Get Conversation returns the conversation including its messages": under a name not shown.
  [ConversationWithMessagesSchema, { ...CONVERSATION, messages: 'promised' }],
  [
    CampaignSchema,
    {
      id: 'promised',
      // Section 2 lists what a campaign is created with; what a returned one holds is not shown.
      name: 'guessed',
      messaging_account_id: 'guessed',
      template_name: 'guessed',
      segment_id: 'guessed',
      scheduled_at: 'guessed',
      status: 'guessed',
      sent_count: 'guessed',
      created_at: 'guessed',
      completed_at: 'guessed?',
    },
  ],
  [
    WebhookEndpointSchema,
    {
      id: 'promised',
      url: 'guessed',
      events: 'guessed',
      // The spec names the states (active, disabled), not the field.
      status: 'guessed',
      created_at: 'guessed',
      disabled_at: 'guessed?',
    },
  ],
  [AccountSchema, { id: 'guessed', name: 'guessed', email: 'guessed', plan: 'guessed', scopes: 'guessed' }],
  [AutomationRunSchema, { id: 'guessed', automation_id: 'guessed', status: 'guessed' }],
  [DeleteResultSchema, { id: 'guessed', deleted: 'guessed' }],
]);
