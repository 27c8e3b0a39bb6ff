// The control API's routes under /_bizmsg/: what each takes and gives, and the MockService method it
// calls. The HTTP handler serves them and the control API's OpenAPI document is generated from them.
import * as z from 'zod/mini';
import type { MockService } from '../service.js';
import {
  DeliveryAttemptSchema,
  JournalEntrySchema,
  PendingTaskSchema,
  SentEmailSchema,
  StoredCampaignSchema,
  StoredContactSchema,
  StoredConversationSchema,
  StoredMessageSchema,
  StoredWebhookEndpointSchema,
} from '../state/records.js';
import { pageById } from '../state/page.js';
import { TemplateSpecSchema } from '../../templates/catalog.js';
import { activityStream, StreamActivitySchema } from './stream.js';
import {
  AdvanceInput,
  ConversationChangeInput,
  DeliveriesQuery,
  EmitInput,
  FaultInput,
  InboundInput,
  JournalQuery,
  KeyInput,
  MessageStatusInput,
  StateQuery,
  WebhookInput,
} from './schemas.js';

/** Where the control API lives on the mock's origin. */
export const CONTROL_PREFIX = '/_bizmsg';

/** What a route gets of its request, once checked. */
export interface ControlInput {
  /** The JSON body, checked by the route's `body` schema. */
  readonly body: unknown;
  /** Path parameters: `id` a whole number (`textId` when the route's `{id}` is text), `key` as given. */
  readonly params: { readonly id?: number; readonly textId?: string; readonly key?: string };
  /** The query, checked by the route's `query` schema. */
  readonly query: unknown;
}

/** One route of the control API, run on `T` (the mock; a proxy or replay of the real service for theirs). */
export interface ControlRoute<T = MockService> {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Below the origin, with `{id}` (a whole number, or text with `idIsText`) or `{key}`. */
  readonly path: string;
  /** `{id}` is text (a message id, `msg_3`), given as `params.textId`. */
  readonly idIsText?: true;
  readonly operationId: string;
  readonly summary: string;
  /** The JSON body it takes, if any. */
  readonly body?: z.ZodMiniType;
  /** The query it takes, if any (values arrive as strings; numbers are read from them). */
  readonly query?: z.ZodMiniType;
  /** What it answers with; none: 204. */
  readonly output?: z.ZodMiniType;
  /**
   * The data of each event, when the route answers Server-Sent Events (`text/event-stream`) instead
   * of JSON: its `run` gives the `EventStream`.
   */
  readonly events?: z.ZodMiniType;
  /** The status of a success. */
  readonly status: 200 | 201 | 204;
  run(target: T, input: ControlInput): unknown;
}

/** `GET /_bizmsg/health`. */
export const HealthOutput = /* @__PURE__ */ z.object({
  ok: z.literal(true),
  variant: z.union([z.literal(1), z.literal(2)]),
  baseUrl: z.string(),
  /** The virtual clock, ISO 8601. */
  now: z.string(),
});

/** `GET /_bizmsg/state`. */
export const StateOutput = /* @__PURE__ */ z.object({
  now: z.string(),
  contacts: z.array(StoredContactSchema),
  messages: z.array(StoredMessageSchema),
  conversations: z.array(StoredConversationSchema),
  campaigns: z.array(StoredCampaignSchema),
  webhooks: z.array(StoredWebhookEndpointSchema),
  deliveries: z.array(DeliveryAttemptSchema),
  emails: z.array(SentEmailSchema),
  pending: z.array(PendingTaskSchema),
  /** The account's templates by name: each one's declaration, or null for one known by name only. */
  templates: z.record(z.string(), z.nullable(TemplateSpecSchema)),
});

/** A fault still in force (`GET /_bizmsg/faults`). */
export const FaultOutput = /* @__PURE__ */ z.object({
  route: z.nullable(z.string()),
  status: z.nullable(z.int()),
  code: z.nullable(z.string()),
  networkError: z.boolean(),
  delay: z.nullable(z.number()),
  rate: z.nullable(z.number()),
  remaining: z.nullable(z.int()),
});

const Now = /* @__PURE__ */ z.object({ now: z.string() });

/** Every route of the control API, but its own document (served by the handler). */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/_bizmsg/health',
    operationId: 'health',
    summary: 'Whether the mock runs: its variant, base URL and virtual time',
    output: HealthOutput,
    status: 200,
    run: (mock) => ({ ok: true, variant: mock.variant, baseUrl: mock.baseUrl, now: mock.clock.date().toISOString() }),
  },
  {
    method: 'GET',
    path: '/_bizmsg/state',
    operationId: 'state',
    summary:
      'Everything the mock holds: contacts, messages, conversations, campaigns, endpoints, deliveries (all, or the newest `deliveries`), e-mails, pending work',
    query: StateQuery,
    output: StateOutput,
    status: 200,
    run: (mock, { query }) => mock.state(query as z.infer<typeof StateQuery>),
  },
  {
    method: 'GET',
    path: '/_bizmsg/requests',
    operationId: 'requests',
    summary:
      'The request journal, oldest first, API keys redacted; by method, path (or template), status (or class); after an id, before an id, the newest limit',
    query: JournalQuery,
    output: z.array(JournalEntrySchema),
    status: 200,
    run: (mock, { query }) => mock.requests(query as Parameters<MockService['requests']>[0]),
  },
  {
    method: 'GET',
    path: '/_bizmsg/deliveries',
    operationId: 'deliveries',
    summary:
      'Every webhook delivery attempt kept, oldest first: what was sent and what came back; after an id, before an id, the newest limit',
    query: DeliveriesQuery,
    output: z.array(DeliveryAttemptSchema),
    status: 200,
    run: (mock, { query }) => pageById(mock.deliveries, query as z.infer<typeof DeliveriesQuery>),
  },
  {
    method: 'GET',
    path: '/_bizmsg/stream',
    operationId: 'stream',
    summary:
      'What the mock does from now on, as Server-Sent Events: `ready` at once, then `activity` (requests, deliveries and changes counted) at most every 100 ms',
    events: StreamActivitySchema,
    status: 200,
    run: (mock) => activityStream(mock),
  },
  {
    method: 'POST',
    path: '/_bizmsg/deliveries/{id}/redeliver',
    operationId: 'redeliver',
    summary: "Delivers that attempt's event again, now, outside the retry schedule; answers the new attempt",
    output: DeliveryAttemptSchema,
    status: 200,
    run: (mock, { params }) => mock.redeliver(params.id!),
  },
  {
    method: 'POST',
    path: '/_bizmsg/clock/advance',
    operationId: 'advanceClock',
    summary: 'Moves the virtual clock forward; answers once the work that fell due has settled',
    body: AdvanceInput,
    output: Now,
    status: 200,
    run: async (mock, { body }) => {
      await mock.clock.advance((body as z.infer<typeof AdvanceInput>).ms);
      return { now: mock.clock.date().toISOString() };
    },
  },
  {
    method: 'GET',
    path: '/_bizmsg/faults',
    operationId: 'faults',
    summary: 'The injected faults still in force, in the order they are tried',
    output: z.array(FaultOutput),
    status: 200,
    run: (mock) => mock.faults(),
  },
  {
    method: 'POST',
    path: '/_bizmsg/faults',
    operationId: 'inject',
    summary: 'Injects a fault: a status, a delay or a network error on matching requests',
    body: FaultInput,
    output: z.array(FaultOutput),
    status: 201,
    run: (mock, { body }) => {
      mock.inject(body as z.infer<typeof FaultInput>);
      return mock.faults();
    },
  },
  {
    method: 'DELETE',
    path: '/_bizmsg/faults',
    operationId: 'clearFaults',
    summary: 'Removes every injected fault',
    status: 204,
    run: (mock) => mock.clearFaults(),
  },
  {
    method: 'POST',
    path: '/_bizmsg/keys',
    operationId: 'createKey',
    summary: 'Creates an API key (scopes left out: all of them; the plan: the largest)',
    body: KeyInput,
    output: z.object({ key: z.string() }),
    status: 201,
    run: (mock, { body }) => ({ key: mock.createKey(body as z.infer<typeof KeyInput>) }),
  },
  {
    method: 'DELETE',
    path: '/_bizmsg/keys/{key}',
    operationId: 'revokeKey',
    summary: 'Revokes an API key: its requests get 401 KEY_REVOKED from now on',
    status: 204,
    run: (mock, { params }) => mock.revokeKey(params.key!),
  },
  {
    method: 'POST',
    path: '/_bizmsg/inbound',
    operationId: 'receiveMessage',
    summary: 'A customer writes: an inbound message, with its events (message.received, conversation.created)',
    body: InboundInput,
    output: StoredMessageSchema,
    status: 201,
    run: (mock, { body }) => mock.receiveMessage(body as z.infer<typeof InboundInput>),
  },
  {
    method: 'PATCH',
    path: '/_bizmsg/conversations/{id}',
    operationId: 'updateConversation',
    summary: 'Changes a conversation (status, assignee); closing it emits conversation.closed',
    body: ConversationChangeInput,
    output: StoredConversationSchema,
    status: 200,
    run: (mock, { params, body }) =>
      mock.updateConversation(params.id!, body as z.infer<typeof ConversationChangeInput>),
  },
  {
    method: 'POST',
    path: '/_bizmsg/webhooks',
    operationId: 'registerWebhook',
    summary:
      'Registers a webhook endpoint (also in Variant 1, whose API has no route for it); a URL that points at the mock itself is refused',
    body: WebhookInput,
    output: StoredWebhookEndpointSchema,
    status: 201,
    run: (mock, { body }) => mock.registerWebhook(body as z.infer<typeof WebhookInput>),
  },
  {
    method: 'DELETE',
    path: '/_bizmsg/webhooks/{id}',
    operationId: 'removeWebhook',
    summary: 'Removes a webhook endpoint, its pending retries included',
    status: 204,
    run: (mock, { params }) => mock.removeWebhook(params.id!),
  },
  {
    method: 'POST',
    path: '/_bizmsg/webhooks/{id}/enable',
    operationId: 'enableWebhook',
    summary: 'Makes a disabled webhook endpoint active again',
    output: StoredWebhookEndpointSchema,
    status: 200,
    run: (mock, { params }) => mock.enableWebhook(params.id!),
  },
  {
    method: 'POST',
    path: '/_bizmsg/events',
    operationId: 'emit',
    summary:
      'Emits one event of a kind (a realistic sample, data merged over it) through the signed delivery path and retry schedule; answers the first attempts',
    body: EmitInput,
    output: z.array(DeliveryAttemptSchema),
    status: 200,
    run: (mock, { body }) => {
      const { event, ...options } = body as z.infer<typeof EmitInput>;
      return mock.emit(event, options);
    },
  },
  {
    method: 'POST',
    path: '/_bizmsg/messages/{id}/status',
    idIsText: true,
    operationId: 'setMessageStatus',
    summary:
      "Decides an outbound message's fate: delivered, read or failed (never back: sent < delivered < read < failed), with each step's event (message.failed carries `error`); its own lifecycle stops there",
    body: MessageStatusInput,
    output: StoredMessageSchema,
    status: 200,
    run: (mock, { params, body }) => mock.setMessageStatus(params.textId!, body as z.infer<typeof MessageStatusInput>),
  },
  {
    method: 'POST',
    path: '/_bizmsg/reset',
    operationId: 'reset',
    summary: 'Back to the seed: seed data and keys only, clock at real time, no faults, an empty journal',
    status: 204,
    run: (mock) => mock.reset(),
  },
];
