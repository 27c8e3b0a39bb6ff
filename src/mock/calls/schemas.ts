// What each call that steers the mock takes, as zod schemas: its methods check their arguments
// with them, and the control API routes and OpenAPI document are built from them.
import * as z from 'zod/mini';
import { SCOPES } from '../../contract/scopes.js';
import { nonEmptyString, RecordSchema } from '../../schemas/common.js';
import { PHONE_PATTERN, PHONE_PATTERN_TEXT } from '../../shared/phone-pattern.js';
import { CONVERSATION_STATUSES } from '../../schemas/conversation.js';
import { WEBHOOK_EVENT_KINDS } from '../../schemas/event-kinds.js';
import { WebhookEndpointCreateSchema } from '../../schemas/webhook-endpoint-params.js';
import { TemplateCatalogSchema } from '../../templates/catalog.js';
import { invalidArguments } from './errors.js';
import { spellsPhone } from './phone.js';

/** A phone number as the spec allows it, with a message that says so. */
export const Phone = /* @__PURE__ */ z
  .string()
  .check(z.refine((phone) => PHONE_PATTERN.test(phone), `must be an international number: ${PHONE_PATTERN_TEXT}`));

/** `clock.advance(ms)`. */
export const AdvanceInput = /* @__PURE__ */ z.strictObject({
  ms: z.int().check(z.gte(0), z.describe('How far to move the clock, in milliseconds.')),
});

/** `createKey({ scopes?, plan? })`. */
export const KeyInput = /* @__PURE__ */ z.strictObject({
  scopes: z.optional(z.array(z.enum(SCOPES))),
  plan: z.optional(nonEmptyString()),
});

/**
 * A customer's number in any spelling (`+44 7700 900124`, `0044…`, `tel:+44…`): the mock keeps it
 * in E.164. The message is the one `Phone` gives, so that a refusal reads as before.
 */
export const AnyPhone = /* @__PURE__ */ z
  .string()
  .check(
    z.refine(spellsPhone, `must be an international number: ${PHONE_PATTERN_TEXT}`),
    z.describe(
      'An international number in any spelling: +44 7700 900124, 0044 7700 900124, 447700900124 or tel:+447700900124; kept in E.164 (+447700900124).',
    ),
  );

/** `receiveMessage({ from, body })`: an inbound customer message. */
export const InboundInput = /* @__PURE__ */ z.strictObject({ from: AnyPhone, body: nonEmptyString() });

/** The longest a customer's `say` may wait for the app's answers to settle, in ms. */
export const MAX_SETTLE_MS = 10_000;
/** The longest a customer's `say` may wait in all, in ms: a control call must not hold a connection longer. */
export const MAX_SAY_TIMEOUT_MS = 60_000;

/**
 * A whole number of ms from 0 to `max`, refused in those words. It goes first and ends the checking
 * when it fails: a refusal does not show `gte`'s and `lte`'s messages (past `lte` it would read "is
 * invalid"); they follow it only to give the control API's document a minimum and a maximum.
 */
/* @__NO_SIDE_EFFECTS__ */
function msUpTo(max: number) {
  return z.refine<number>((ms) => ms >= 0 && ms <= max, {
    message: `must be a whole number of ms from 0 to ${max}`,
    abort: true,
  });
}

/** `customer(phone).say(text, { settle?, timeout? })`: what the customer writes, and how long to wait for the answers. */
export const SayInput = /* @__PURE__ */ z.strictObject({
  text: nonEmptyString().check(z.describe('What the customer writes: the body of an inbound text message.')),
  settle: z.optional(
    z
      .int()
      .check(
        msUpTo(MAX_SETTLE_MS),
        z.gte(0),
        z.lte(MAX_SETTLE_MS),
        z.describe(
          'How long no new message to the customer must come, in ms of real time, before the answer is taken as complete (default 200).',
        ),
      ),
  ),
  timeout: z.optional(
    z
      .int()
      .check(
        msUpTo(MAX_SAY_TIMEOUT_MS),
        z.gte(0),
        z.lte(MAX_SAY_TIMEOUT_MS),
        z.describe(
          'The longest the call waits in all, in ms of real time (default 5000): then it answers with what came.',
        ),
      ),
  ),
});

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
export const FaultInput = /* @__PURE__ */ z
  .strictObject({
    route: z.optional(
      nonEmptyString().check(
        z.describe(
          'Which requests: "METHOD /path" naming an endpoint of the variant, the path below the base URL, `{id}` or `:id` where an id stands (e.g. "POST /messages/send", "GET /contacts/{id}"); left out: every request.',
        ),
      ),
    ),
    status: z.optional(
      z
        .int()
        .check(
          z.describe(
            "Answer with this error status, 400 to 599, in the variant's error envelope (429 adds Retry-After: 1).",
          ),
        ),
    ),
    code: z.optional(
      nonEmptyString().check(
        z.describe(
          "The answer's error code; default: the one the spec gives `status` in this variant (required where it gives none or several). A code of the spec must come with its own status; any other string tests a client's handling of new codes.",
        ),
      ),
    ),
    networkError: z.optional(z.boolean().check(z.describe('true: drop the connection instead of answering.'))),
    delay: z.optional(
      z
        .number()
        .check(
          z.describe(
            'Wait this many milliseconds of real time (0 to 2147483647) before going on: alone it slows the answer; with status or networkError it comes first.',
          ),
        ),
    ),
    times: z.optional(
      z
        .int()
        .check(
          z.gte(1),
          z.describe('Apply to the next this many matching requests; default 1, or every one when `rate` is given.'),
        ),
    ),
    rate: z.optional(
      z
        .number()
        .check(
          z.describe(
            'Apply to this share (0 to 1) of matching requests, each drawn from the seeded random sequence (0.5: about half).',
          ),
        ),
    ),
  })
  .check(z.describe('A fault: needs a status, networkError: true or a delay.'));

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
