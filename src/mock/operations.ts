// The operations that steer and inspect a MockService, one entry each: its name, route, argument
// schemas, answer and handler. connectMock (in process and over HTTP), the control routes and the
// control API's OpenAPI document are all generated from this table.
import * as z from 'zod/mini';
import type { WebhookEventKind } from '../schemas/event-kinds.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { TemplateSpecSchema } from '../templates/catalog.js';
import {
  AdvanceInput,
  checkArguments,
  ConversationChangeInput,
  DeliveriesQuery,
  EmitInput,
  FaultInput,
  InboundInput,
  JournalQuery,
  KeyInput,
  MessageStatusInput,
  SayInput,
  StateQuery,
  WebhookInput,
} from './calls/schemas.js';
import type { MockCustomer } from './customer/customer.js';
import type { Scope } from './options.js';
import type { FaultSpec, InjectedFault } from './rules/faults.js';
import type { MockService, MockSnapshot } from './service.js';
import type { RequestFilter } from './state/journal.js';
import { pageById, type IdPage } from './state/page.js';
import {
  DeliveryAttemptSchema,
  RecordedRequestSchema,
  PendingTaskSchema,
  SentEmailSchema,
  StoredCampaignSchema,
  StoredContactSchema,
  StoredConversationSchema,
  StoredMessageSchema,
  StoredWebhookEndpointSchema,
  type DeliveryAttempt,
  type RecordedRequest,
  type StoredConversation,
  type StoredMessage,
  type StoredWebhookEndpoint,
} from './state/records.js';
import { CustomerMessageSchema, transcriptOf, type CustomerMessage } from './customer/transcript.js';

/** What `health()` answers. */
export interface MockHealth {
  /** Always true: the mock answers. */
  ok: true;
  /** The variant of the service it plays. */
  variant: 1 | 2;
  /** The base URL clients send to (`http://127.0.0.1:4010/api/v1`). */
  baseUrl: string;
  /** The virtual clock, ISO 8601. */
  now: string;
}

/**
 * Steers and inspects a mock: the same methods whether it runs in this process or is a
 * `bizmsg-mock` reached over HTTP, so that one test reads alike against either. Every method
 * returns a promise; a refused call (a bad argument, an unknown id) rejects with an
 * `InvalidArgumentError` that names the field, and changes nothing.
 */
export interface MockControl {
  /** Whether the mock runs: its variant, base URL and virtual time. */
  health(): Promise<MockHealth>;
  /** Everything the mock holds, as JSON; `deliveries`: only that many of the newest attempts. */
  state(options?: { deliveries?: number | undefined }): Promise<MockSnapshot>;
  /** The request journal, oldest first, API keys redacted. */
  requests(filter?: RequestFilter): Promise<RecordedRequest[]>;
  /** The webhook delivery attempts kept, oldest first: all, or the page `page` picks by id. */
  deliveries(page?: IdPage): Promise<DeliveryAttempt[]>;
  /** Delivers the event of attempt `id` again, now; resolves with the new attempt. */
  redeliver(id: number): Promise<DeliveryAttempt>;
  /** The virtual clock. */
  readonly clock: {
    /** Moves it forward by `ms`; resolves with the new time once the work that fell due has settled. */
    advance(ms: number): Promise<{ now: string }>;
    /** Freezes it: nothing falls due (no message delivered, no retry made) until `advance` or `start`; resolves with the time it stands at. */
    stop(): Promise<{ now: string }>;
    /** Lets a stopped clock run again from where it stood; resolves with the time once the work due by then has settled. */
    start(): Promise<{ now: string }>;
  };
  /** Injects a fault (status, network error or delay) into matching requests. */
  inject(fault: FaultSpec): Promise<void>;
  /** The injected faults still in force. */
  faults(): Promise<InjectedFault[]>;
  /** Removes every injected fault. */
  clearFaults(): Promise<void>;
  /** Creates an API key (scopes left out: all of them). */
  createKey(options?: { scopes?: readonly Scope[] | undefined; plan?: string | undefined }): Promise<string>;
  /** Revokes an API key. */
  revokeKey(key: string): Promise<void>;
  /** A customer writes: an inbound message, with its events. */
  receiveMessage(message: { from: string; body: string }): Promise<StoredMessage>;
  /** Changes a conversation (status, assignee). */
  updateConversation(
    id: number,
    change: { status?: StoredConversation['status'] | undefined; assigned_to?: string | null | undefined },
  ): Promise<StoredConversation>;
  /**
   * Decides an outbound message's fate: `delivered`, `read` or `failed` (never back), with each
   * step's events (`message.failed` carries `error`); resolves with the message.
   */
  setMessageStatus(
    id: string,
    change: { status: 'delivered' | 'read' | 'failed'; error?: { code: string; message: string } | undefined },
  ): Promise<StoredMessage>;
  /** Registers a webhook endpoint (also in Variant 1). */
  registerWebhook(endpoint: {
    url: string;
    events: readonly WebhookEventKind[];
    secret: string;
  }): Promise<StoredWebhookEndpoint>;
  /** Removes a webhook endpoint. */
  removeWebhook(id: number): Promise<void>;
  /** Makes a disabled webhook endpoint active again. */
  enableWebhook(id: number): Promise<StoredWebhookEndpoint>;
  /** Emits one event of a kind through the normal delivery path; resolves with the first attempts. */
  emit(
    event: WebhookEventKind,
    options?: { data?: Record<string, unknown> | undefined; endpointId?: number | undefined },
  ): Promise<DeliveryAttempt[]>;
  /** Back to the seed. */
  reset(): Promise<void>;
  /**
   * A customer a test plays, by number in any spelling (`'+44 7700 900124'`): `say` writes to the
   * app and resolves with its answer, `transcript` and `lastReply` read the conversation. A number
   * that is none throws an `InvalidArgumentError` naming it, at once.
   */
  customer(phone: string): MockCustomer;
}

/**
 * Every method of `MockControl` by its name, the clock's by their path (`clock.advance`), a
 * customer's by theirs with the customer's number first (`customer.say(phone, text, options)`).
 */
type Methods = Omit<MockControl, 'clock' | 'customer'> & {
  [M in keyof MockControl['clock'] as `clock.${M}`]: MockControl['clock'][M];
} & {
  [M in Exclude<keyof MockCustomer, 'phone'> as `customer.${M}`]: (
    phone: string,
    ...args: Parameters<MockCustomer[M]>
  ) => ReturnType<MockCustomer[M]>;
};
/** The name of one operation: a `MockControl` method. */
export type OperationName = keyof Methods;
/** The arguments of an operation. */
type ArgsOf<N extends OperationName> = Parameters<Methods[N]>;

/** A control call over HTTP, its input checked: path parameters, then the JSON body or the query. */
export interface ControlInput {
  /** The JSON body, checked by the operation's `body` schema. */
  readonly body?: unknown;
  /** Path parameters: `id` a whole number (`textId` when the route's `{id}` is text), `key` and `phone` as given. */
  readonly params?: { readonly id?: number; readonly textId?: string; readonly key?: string; readonly phone?: string };
  /** The query, checked by the operation's `query` schema. */
  readonly query?: unknown;
}

/** One operation on a MockService: what it takes and gives, its route, and the handler that runs it. */
export interface MockOperation<N extends OperationName = OperationName> {
  readonly name: N;
  /** Its `operationId` in the control API's document, when not its name. */
  readonly operationId?: string;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Below the origin, with `{id}` (a whole number, or text with `idIsText`), `{key}` or `{phone}` (text). */
  readonly path: string;
  /** `{id}` is text (a message id, `msg_3`), given as `params.textId`. */
  readonly idIsText?: true;
  readonly summary: string;
  /** The JSON body it takes over HTTP, if any: by default the argument after the path's. */
  readonly body?: z.ZodMiniType;
  /** The query it takes over HTTP, if any: by default the argument after the path's. */
  readonly query?: z.ZodMiniType;
  /** What it answers over HTTP; none: 204. */
  readonly output?: z.ZodMiniType;
  /** The status of a success over HTTP. */
  readonly status: 200 | 201 | 204;
  /**
   * It waits for the deliveries it causes itself, within bounds of its own (a customer's `say`):
   * `settled` adds no wait after it, which would outlast its `timeout`.
   */
  readonly waitsItself?: true;
  /** The handler: runs the operation on the service, with the method's arguments. */
  readonly run: (mock: MockService, ...args: ArgsOf<N>) => unknown;
  /** The method's arguments from a call over HTTP, when they are not its path parameters and then its body or query. */
  readonly argsOf?: (call: ControlInput) => ArgsOf<N>;
  /** The call over HTTP of the method's arguments, when they are not the above. */
  readonly callOf?: (...args: ArgsOf<N>) => ControlInput;
  /** What it answers over HTTP, when not the handler's result. */
  readonly answer?: (result: unknown, mock: MockService) => unknown;
  /** The method's result from that answer, when they differ. */
  readonly resultOf?: (answer: unknown) => unknown;
  /**
   * The method's result rebuilt from a copy of it (in process) or from `resultOf` (over HTTP), when
   * it carries what JSON and `structuredClone` drop (a transcript's `toString`).
   */
  readonly revive?: (result: unknown) => unknown;
}

/** One entry of the table, its types checked against its `MockControl` method. */
const operation = <N extends OperationName>(entry: MockOperation<N>): MockOperation => entry;

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

/** Every operation on a MockService, in the order the control API's document lists them. */
export const MOCK_OPERATIONS: readonly MockOperation[] = [
  operation({
    name: 'health',
    method: 'GET',
    path: '/_bizmsg/health',
    summary: 'Whether the mock runs: its variant, base URL and virtual time',
    output: HealthOutput,
    status: 200,
    run: (mock) => ({ ok: true, variant: mock.variant, baseUrl: mock.baseUrl, now: mock.clock.date().toISOString() }),
  }),
  operation({
    name: 'state',
    method: 'GET',
    path: '/_bizmsg/state',
    summary:
      'Everything the mock holds: contacts, messages, conversations, campaigns, endpoints, deliveries (all, or the newest `deliveries`), e-mails, pending work',
    query: StateQuery,
    output: StateOutput,
    status: 200,
    run: (mock, options) => mock.state(options),
  }),
  operation({
    name: 'requests',
    method: 'GET',
    path: '/_bizmsg/requests',
    summary:
      'The request journal, oldest first, API keys redacted; by method, path (or template), status (or class); after an id, before an id, the newest limit',
    query: JournalQuery,
    output: z.array(RecordedRequestSchema),
    status: 200,
    run: (mock, filter) => mock.requests(filter),
  }),
  operation({
    name: 'deliveries',
    method: 'GET',
    path: '/_bizmsg/deliveries',
    summary:
      'Every webhook delivery attempt kept, oldest first: what was sent and what came back; after an id, before an id, the newest limit',
    query: DeliveriesQuery,
    output: z.array(DeliveryAttemptSchema),
    status: 200,
    run: (mock, page = {}) => pageById(mock.deliveries, checkArguments(DeliveriesQuery, page, 'deliveries')),
  }),
  operation({
    name: 'redeliver',
    method: 'POST',
    path: '/_bizmsg/deliveries/{id}/redeliver',
    summary: "Delivers that attempt's event again, now, outside the retry schedule; answers the new attempt",
    output: DeliveryAttemptSchema,
    status: 200,
    run: (mock, id) => mock.redeliver(id),
  }),
  operation({
    name: 'clock.advance',
    operationId: 'advanceClock',
    method: 'POST',
    path: '/_bizmsg/clock/advance',
    summary: 'Moves the virtual clock forward; answers once the work that fell due has settled',
    body: AdvanceInput,
    output: Now,
    status: 200,
    run: async (mock, ms) => {
      await mock.clock.advance(ms);
      return { now: mock.clock.date().toISOString() };
    },
    argsOf: ({ body }) => [(body as z.infer<typeof AdvanceInput>).ms],
    callOf: (ms) => ({ body: { ms } }),
  }),
  operation({
    name: 'clock.stop',
    operationId: 'stopClock',
    method: 'POST',
    path: '/_bizmsg/clock/stop',
    summary:
      'Freezes the virtual clock: nothing falls due (no message delivered, no retry made, no campaign run) until clock/advance moves it or clock/start lets it run; a reset lets it run too',
    output: Now,
    status: 200,
    run: (mock) => {
      mock.clock.stop();
      return { now: mock.clock.date().toISOString() };
    },
  }),
  operation({
    name: 'clock.start',
    operationId: 'startClock',
    method: 'POST',
    path: '/_bizmsg/clock/start',
    summary:
      'Lets a stopped virtual clock run again from where it stood; answers once the work due by then has settled',
    output: Now,
    status: 200,
    run: async (mock) => {
      mock.clock.start();
      await mock.clock.advance(0);
      return { now: mock.clock.date().toISOString() };
    },
  }),
  operation({
    name: 'faults',
    method: 'GET',
    path: '/_bizmsg/faults',
    summary: 'The injected faults still in force, in the order they are tried',
    output: z.array(FaultOutput),
    status: 200,
    run: (mock) => mock.faults(),
  }),
  operation({
    name: 'inject',
    method: 'POST',
    path: '/_bizmsg/faults',
    summary: 'Injects a fault: a status, a delay or a network error on matching requests',
    body: FaultInput,
    output: z.array(FaultOutput),
    status: 201,
    run: (mock, fault) => mock.inject(fault),
    callOf: (fault) => {
      if (fault.route instanceof RegExp)
        throw new InvalidArgumentError('Over HTTP a fault route is a string ("POST /messages/send"), not a RegExp.');
      return { body: fault };
    },
    answer: (_, mock) => mock.faults(),
    resultOf: () => undefined,
  }),
  operation({
    name: 'clearFaults',
    method: 'DELETE',
    path: '/_bizmsg/faults',
    summary: 'Removes every injected fault',
    status: 204,
    run: (mock) => mock.clearFaults(),
  }),
  operation({
    name: 'createKey',
    method: 'POST',
    path: '/_bizmsg/keys',
    summary: 'Creates an API key (scopes left out: all of them; the plan: the largest)',
    body: KeyInput,
    output: z.object({ key: z.string() }),
    status: 201,
    run: (mock, options) => mock.createKey(options),
    answer: (key) => ({ key }),
    resultOf: (answer) => (answer as { key: string }).key,
  }),
  operation({
    name: 'revokeKey',
    method: 'DELETE',
    path: '/_bizmsg/keys/{key}',
    summary: 'Revokes an API key: its requests get 401 KEY_REVOKED from now on',
    status: 204,
    run: (mock, key) => mock.revokeKey(key),
  }),
  operation({
    name: 'receiveMessage',
    method: 'POST',
    path: '/_bizmsg/inbound',
    summary: 'A customer writes: an inbound message, with its events (message.received, conversation.created)',
    body: InboundInput,
    output: StoredMessageSchema,
    status: 201,
    run: (mock, message) => mock.receiveMessage(message),
  }),
  operation({
    name: 'updateConversation',
    method: 'PATCH',
    path: '/_bizmsg/conversations/{id}',
    summary: 'Changes a conversation (status, assignee); closing it emits conversation.closed',
    body: ConversationChangeInput,
    output: StoredConversationSchema,
    status: 200,
    run: (mock, id, change) => mock.updateConversation(id, change),
  }),
  operation({
    name: 'registerWebhook',
    method: 'POST',
    path: '/_bizmsg/webhooks',
    summary:
      'Registers a webhook endpoint (also in Variant 1, whose API has no route for it); a URL that points at the mock itself is refused',
    body: WebhookInput,
    output: StoredWebhookEndpointSchema,
    status: 201,
    run: (mock, endpoint) => mock.registerWebhook(endpoint),
  }),
  operation({
    name: 'removeWebhook',
    method: 'DELETE',
    path: '/_bizmsg/webhooks/{id}',
    summary: 'Removes a webhook endpoint, its pending retries included',
    status: 204,
    run: (mock, id) => mock.removeWebhook(id),
  }),
  operation({
    name: 'enableWebhook',
    method: 'POST',
    path: '/_bizmsg/webhooks/{id}/enable',
    summary: 'Makes a disabled webhook endpoint active again',
    output: StoredWebhookEndpointSchema,
    status: 200,
    run: (mock, id) => mock.enableWebhook(id),
  }),
  operation({
    name: 'emit',
    method: 'POST',
    path: '/_bizmsg/events',
    summary:
      'Emits one event of a kind (a realistic sample, data merged over it) through the signed delivery path and retry schedule; answers the first attempts',
    body: EmitInput,
    output: z.array(DeliveryAttemptSchema),
    status: 200,
    run: (mock, event, options) => mock.emit(event, options),
    argsOf: ({ body }) => {
      const { event, ...options } = body as z.infer<typeof EmitInput>;
      return [event, options];
    },
    callOf: (event, options = {}) => ({ body: { event, ...options } }),
  }),
  operation({
    name: 'setMessageStatus',
    method: 'POST',
    path: '/_bizmsg/messages/{id}/status',
    idIsText: true,
    summary:
      "Decides an outbound message's fate: delivered, read or failed (never back: sent < delivered < read < failed), with each step's event (message.failed carries `error`); its own lifecycle stops there",
    body: MessageStatusInput,
    output: StoredMessageSchema,
    status: 200,
    run: (mock, id, change) => mock.setMessageStatus(id, change),
  }),
  operation({
    name: 'customer.say',
    operationId: 'customerSay',
    method: 'POST',
    path: '/_bizmsg/customers/{phone}/say',
    summary:
      "A customer writes to the app (an inbound message, as /inbound) and the call answers the app's messages to that number in answer: once the deliveries of the customer's message were answered, then once no new message came for `settle` ms (default 200), or after `timeout` ms (default 5000) with what came. The number in the path in any spelling, URL-encoded (%2B44%207700%20900124). 409 CONFLICT, and nothing sent, when no enabled webhook endpoint subscribes to message.received (the app could not hear the customer): the message names the disabled endpoint to enable (POST /_bizmsg/webhooks/{id}/enable), or says to register one",
    body: SayInput,
    output: z.array(CustomerMessageSchema),
    status: 200,
    waitsItself: true,
    run: (mock, phone, text, options) => mock.customer(phone).say(text, options),
    argsOf: ({ params, body }) => {
      const { text, ...options } = body as z.infer<typeof SayInput>;
      return [params?.phone ?? '', text, options];
    },
    // Options that are no object are sent as they are, for the handler to refuse as in process.
    callOf: (_phone, text, options = {}) => ({
      body: typeof options === 'object' && options !== null ? { ...options, text } : options,
    }),
  }),
  operation({
    name: 'customer.transcript',
    operationId: 'customerTranscript',
    method: 'GET',
    path: '/_bizmsg/customers/{phone}/transcript',
    summary:
      "The conversation with a customer both ways, oldest first: each message's `from` ('customer' or 'app'), `text` (a template as `[template name: parameters]`), id, status and time. The number in the path in any spelling, URL-encoded",
    output: z.array(CustomerMessageSchema),
    status: 200,
    run: (mock, phone) => mock.customer(phone).transcript(),
    revive: (entries) => transcriptOf(entries as CustomerMessage[]),
  }),
  operation({
    name: 'reset',
    method: 'POST',
    path: '/_bizmsg/reset',
    summary:
      'Back to the seed: seed data and keys only, each seeded record as the seed describes it (a seeded webhook endpoint its failures disabled is active again), no delivery attempt, e-mail or retry left, the deliveries under way ended; the clock at real time and running, no faults, an empty journal',
    status: 204,
    run: (mock) => mock.reset(),
  }),
];

/** Runs the handler of `op` on `mock` with the method's arguments. */
export function runOn(mock: MockService, op: MockOperation, args: readonly unknown[]): unknown {
  return (op.run as (mock: MockService, ...args: readonly unknown[]) => unknown)(mock, ...args);
}

/** The method's arguments from a checked call over HTTP: its path parameters, then its body or query. */
export function argsOf(op: MockOperation, call: ControlInput): unknown[] {
  if (op.argsOf !== undefined) return op.argsOf(call);
  const params = pathNames(op).map((name) =>
    name === 'key' || name === 'phone'
      ? call.params?.[name]
      : op.idIsText === true
        ? call.params?.textId
        : call.params?.id,
  );
  const rest = op.body !== undefined ? [call.body] : op.query !== undefined ? [call.query] : [];
  return [...params, ...rest];
}

/** The call over HTTP of the method's arguments: the path filled in, then the body or query. */
export function callOf(op: MockOperation, args: readonly unknown[]): ControlInput & { path: string } {
  const call = op.callOf === undefined ? undefined : (op.callOf as (...a: readonly unknown[]) => ControlInput)(...args);
  let index = 0;
  const path = op.path.replace(/\{\w+\}/g, () => encodeURIComponent(String(args[index++])));
  if (call !== undefined) return { ...call, path };
  const rest = args[index] ?? {};
  return { path, ...(op.body !== undefined ? { body: rest } : op.query !== undefined ? { query: rest } : {}) };
}

/** The names of the route's path parameters, in order. */
export function pathNames(op: { readonly path: string }): string[] {
  return [...op.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

/**
 * Runs `run` on `mock`; a call that changes the mock (any `method` but GET) resolves once the
 * deliveries it caused were attempted, over HTTP and in process alike: a test reads them next. A
 * call that `waitsItself` has waited as long as it should already.
 */
export async function settled<T>(
  mock: MockService,
  call: Pick<MockOperation, 'method' | 'waitsItself'>,
  run: () => T | Promise<T>,
): Promise<T> {
  const before = mock.clock.underWay();
  const running = run();
  // What the call started before its first await: its own deliveries, and no other call's.
  const caused = mock.clock.startedSince(before);
  const result = await running;
  if (call.method !== 'GET' && call.waitsItself !== true) await Promise.allSettled(caused);
  return result;
}
