// What each control call takes, as zod schemas: the in-process methods and the HTTP routes check
// their arguments with them, and the control API's OpenAPI document is generated from them.
import * as z from 'zod/mini';
import { SCOPES } from '../../contract/scopes.js';
import { nonEmptyString, RecordSchema } from '../../schemas/common.js';
import { PHONE_PATTERN, PHONE_PATTERN_TEXT } from '../../shared/phone-pattern.js';
import { CONVERSATION_STATUSES } from '../../schemas/conversation.js';
import { WEBHOOK_EVENT_KINDS } from '../../schemas/webhook-endpoint.js';
import { WebhookEndpointCreateSchema } from '../../schemas/webhook-endpoint-params.js';
import { TemplateCatalogSchema } from '../../templates/catalog.js';
import { phoneKey } from '../state/store.js';
import { CONTROL_ERROR_CODES, invalidArguments } from './errors.js';

/** A phone number as the spec allows it, with a message that says so. */
const Phone = /* @__PURE__ */ z
  .string()
  .check(z.refine((phone) => PHONE_PATTERN.test(phone), `must be an international number: ${PHONE_PATTERN_TEXT}`));

/** One seeded contact per number, as the service keeps them: a second spelling of a number is refused. */
function onePerNumber(contacts: ReadonlyArray<{ phone: string }>, ctx: z.core.$RefinementCtx): void {
  const first = new Map<string, number>();
  contacts.forEach(({ phone }, index) => {
    if (!PHONE_PATTERN.test(phone)) return; // refused as it is
    const earlier = first.get(phoneKey(phone));
    if (earlier === undefined) first.set(phoneKey(phone), index);
    else
      ctx.addIssue({
        code: 'custom',
        path: [index, 'phone'],
        message: `is already the number of contacts.${earlier}`,
        input: phone,
      });
  });
}

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

/** The seed data of `createMockServer({ seed })`: where the mock starts, and returns to on `reset()`. */
export const SeedInput = /* @__PURE__ */ z.strictObject({
  random: z.optional(z.int()),
  contacts: z.optional(
    z
      .array(
        z.strictObject({
          name: nonEmptyString(),
          phone: Phone,
          email: z.optional(z.email()),
          tags: z.optional(z.array(z.string())),
          custom_fields: z.optional(RecordSchema),
        }),
      )
      .check(z.superRefine(onePerNumber)),
  ),
  webhooks: z.optional(z.array(WebhookInput)),
});

/** The account's templates: names (any language, any parameters), or a catalog (`defineTemplates(...).catalog`). */
export const TemplatesInput = /* @__PURE__ */ z.union([z.array(nonEmptyString()), TemplateCatalogSchema]);

/** The options of `createMockServer` as JSON: what `bizmsg-mock --seed-file` reads. */
export const OptionsFileInput = /* @__PURE__ */ z.strictObject({
  variant: z.optional(z.literal([1, 2])),
  keys: z.optional(
    z.array(
      z.strictObject({
        key: nonEmptyString(),
        scopes: z.optional(z.array(z.enum(SCOPES))),
        plan: z.optional(nonEmptyString()),
        revoked: z.optional(z.boolean()),
      }),
    ),
  ),
  plans: z.optional(
    z.record(
      z.string(),
      z.strictObject({
        rateLimit: z.optional(z.int()),
        window: z.optional(z.number()),
        maxContacts: z.optional(z.int()),
        maxWebhookEndpoints: z.optional(z.int()),
        maxMessages: z.optional(z.int()),
      }),
    ),
  ),
  templates: z.optional(TemplatesInput),
  seed: z.optional(z.union([z.int(), SeedInput])),
  webhookTimeout: z.optional(z.number()),
  history: z.optional(z.strictObject({ requests: z.optional(z.int()), deliveries: z.optional(z.int()) })),
});

/** What a refused control call answers: `{ error: { code, message, details } }`. */
export const ControlErrorOutput = /* @__PURE__ */ z.object({
  error: z.object({
    code: z.enum(Object.values(CONTROL_ERROR_CODES)),
    message: z.string(),
    /** Each field at fault, with what is wrong with it. */
    details: z.record(z.string(), z.array(z.string())),
  }),
});

/** `value` checked by `schema`; otherwise an InvalidArgumentError naming each field at fault. */
export function checkArguments<T>(schema: z.ZodMiniType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw invalidArguments(what, result.error.issues);
}
