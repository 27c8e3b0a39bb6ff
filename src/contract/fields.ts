// Which fields of the service's answers the spec shows: the one home of that fact. Every other field
// is bizmsg's guess; the schemas say which guesses are expected every time (`expected()` in
// schemas/common.ts) and are held to these marks by test/contract/fields.test.ts (a field is required
// in the types only when it is shown and always there, or promised). The OpenAPI documents and the
// docs read the marks; the drift check reads the schemas.
import type { ZodMiniType } from 'zod/mini';
import { AccountSchema } from '../schemas/account.js';
import { AutomationExecutionSchema } from '../schemas/automation.js';
import { CampaignSchema } from '../schemas/campaign.js';
import { EXPECTED, ListMetaSchema } from '../schemas/common.js';
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

/** What the spec shows of one object: its fields shown, and those promised (guessed names the method needs). */
export interface Shown {
  readonly shown?: readonly string[];
  readonly promised?: readonly string[];
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

/**
 * The marks of every field of each object: shown or promised as `shown` says, else guessed, each
 * `?` when it is optional and not expected every time.
 */
export function fieldMarks(objects: ReadonlyArray<readonly [ZodMiniType, Shown]>): FieldMarks {
  return new Map(
    objects.map(([schema, { shown = [], promised = [] }]) => {
      const object = objectOf(schema);
      const shape = (object._zod.def as unknown as { shape: Record<string, ZodMiniType> }).shape;
      const marks = Object.entries(shape).map(([name, field]) => {
        const sometimes = field._zod.optin === 'optional' && !EXPECTED.has(field) ? '?' : '';
        if (promised.includes(name)) return [name, 'promised'];
        return [name, `${shown.includes(name) ? 'shown' : 'guessed'}${sometimes}`];
      });
      return [object, Object.fromEntries(marks) as Record<string, FieldMark>];
    }),
  );
}

/**
 * What bizmsg reads of each answer of the service, and what the spec shows of it: the list `meta`
 * (section 2, both variants), a contact's input fields and id ("fields of returned contact records
 * beyond the input fields and the id: not shown"), a message's `delivered_at`, a conversation's id
 * (its path) and status. A message's id is shown, its name is not: the schema takes `id` or
 * `message_id`, either. Variant 2's bodies and the other records are guesses.
 */
export const RECORD_MARKS: FieldMarks = /* @__PURE__ */ fieldMarks([
  [ListMetaSchema, { shown: ['current_page', 'per_page', 'total', 'last_page'] }],
  [ContactSchema, { shown: ['id', 'name', 'phone', 'email', 'tags', 'custom_fields'] }],
  [MessageSchema, { shown: ['delivered_at'] }],
  [ConversationSchema, { shown: ['id', 'status'] }],
  // "Get Conversation returns the conversation including its messages": under a name not shown.
  [ConversationWithMessagesSchema, { shown: ['id', 'status'], promised: ['messages'] }],
  [CampaignSchema, { promised: ['id'] }],
  [WebhookEndpointSchema, { promised: ['id'] }],
  [AccountSchema, {}],
  [AutomationExecutionSchema, {}],
  [DeleteResultSchema, {}],
]);
