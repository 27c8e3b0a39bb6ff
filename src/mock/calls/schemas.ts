// What each call that steers the mock takes, as zod schemas: its methods check their arguments
// with them, and the control API routes and OpenAPI document are built from them.
import * as z from 'zod/mini';
import { SCOPES } from '../../contract/scopes.js';
import { nonEmptyString, RecordSchema } from '../../schemas/common.js';
import { PHONE_PATTERN, PHONE_PATTERN_TEXT } from '../../shared/phone-pattern.js';
import { CONVERSATION_STATUSES } from '../../schemas/conversation.js';
import { WEBHOOK_EVENT_KINDS } from '../../schemas/webhook-endpoint.js';
import { WebhookEndpointCreateSchema } from '../../schemas/webhook-endpoint-params.js';
import { TemplateCatalogSchema } from '../../templates/catalog.js';
import { invalidArguments } from './errors.js';

/** A phone number as the spec allows it, with a message that says so. */
export const Phone = /* @__PURE__ */ z
  .string()
  .check(z.refine((phone) => PHONE_PATTERN.test(phone), `must be an international number: ${PHONE_PATTERN_TEXT}`));

/** `clock.advance(ms)`. */
export const AdvanceInput = /* @__PURE__ */ z.strictObject({ ms: z.int().check(z.gte(0)) });

/** `createKey({ scopes?, plan? })`. */
export const KeyInput = /* @__PURE__ */ z.strictObject({
  scopes: z.optional(z.array(z.enum(SCOPES))),
  plan: z.optional(nonEmptyString()),
});

/** `receiveMessage({ from, body })`: an inbound customer message. */
export const InboundInput = /* @__PURE__ */ z.strictObject({ from: Phone, body: nonEmptyString() });

/** `updateConversation(id, { status?, assigned_to? })`. */
export const ConversationChangeInput = /* @__PURE__ */ z.strictObject({
  status: z.optional(z.enum(CONVERSATION_STATUSES)),
  assigned_to: z.optional(z.nullable(z.string())),
});

/** `setMessageStatus(id, { status, error? })`: where an outbound message ends up; only a failure carries `error`. */
export const MessageStatusInput = /* @__PURE__ */ z
  .strictObject({
    status: z.enum(['delivered', 'read', 'failed']),
    error: z.optional(z.strictObject({ code: nonEmptyString(), message: nonEmptyString() })),
  })
  .check(
    z.refine((input) => input.error === undefined || input.status === 'failed', {
      path: ['error'],
      message: 'is only for status failed',
    }),
  );

/** `emit(event, { data?, endpointId? })`. */
export const EmitInput = /* @__PURE__ */ z.strictObject({
  event: z.enum(WEBHOOK_EVENT_KINDS),
  data: z.optional(RecordSchema),
  endpointId: z.optional(z.int().check(z.gte(1))),
});

/** `registerWebhook({ url, events, secret })`: the service's registration body, but strict (a typo is refused, not ignored). */
export const WebhookInput = /* @__PURE__ */ z.strictObject(WebhookEndpointCreateSchema.shape);

/** A fault, as JSON carries it (in process, `route` may also be a RegExp). */
export const FaultInput = /* @__PURE__ */ z.strictObject({
  route: z.optional(nonEmptyString()),
  status: z.optional(z.int()),
  code: z.optional(nonEmptyString()),
  networkError: z.optional(z.boolean()),
  delay: z.optional(z.number()),
  times: z.optional(z.int().check(z.gte(1))),
  rate: z.optional(z.number()),
});

/** What `requests()` picks. */
export const JournalQuery = /* @__PURE__ */ z.strictObject({
  method: z.optional(nonEmptyString()),
  path: z.optional(nonEmptyString()),
  status: z.optional(
    z
      .string()
      .check(z.refine((status) => /^([1-5]xx|\d{3})$/i.test(status), 'must be a status (404) or a class (4xx)')),
  ),
  after: z.optional(z.int().check(z.gte(0))),
  before: z.optional(z.int().check(z.gte(1))),
  limit: z.optional(z.int().check(z.gte(1))),
});

/** What `state()` leaves out: `deliveries`, how many of the newest attempts it carries (default: every one kept). */
export const StateQuery = /* @__PURE__ */ z.strictObject({ deliveries: z.optional(z.int().check(z.gte(0))) });

/** What `deliveries()` picks: a page of attempts by id, the newest `limit` of it. */
export const DeliveriesQuery = /* @__PURE__ */ z.strictObject({
  after: z.optional(z.int().check(z.gte(0))),
  before: z.optional(z.int().check(z.gte(1))),
  limit: z.optional(z.int().check(z.gte(1))),
});

/** The account's templates: names (any language, any parameters), or a catalog (`defineTemplates(...).catalog`). */
export const TemplatesInput = /* @__PURE__ */ z.union([z.array(nonEmptyString()), TemplateCatalogSchema]);

/**
 * What each schema gave back: a call is checked once where it enters (the control API's handler
 * over HTTP, the service's method in process), and the method the handler then calls does not
 * check that value again.
 */
const checked = new WeakMap<object, z.ZodMiniType>();

/** `value` checked by `schema`, once; otherwise an InvalidArgumentError naming each field at fault (`what`: the call). */
export function checkArguments<T>(schema: z.ZodMiniType<T>, value: unknown, what: string): T {
  if (typeof value === 'object' && value !== null && checked.get(value) === schema) return value as T;
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw invalidArguments(what, result.error.issues);
  if (typeof result.data === 'object' && result.data !== null) checked.set(result.data, schema);
  return result.data;
}
