// What users pass, under exactOptionalPropertyTypes (issue 42): every optional property of every
// input type takes `T | undefined`, and what bizmsg returns goes back in where a user would pass it.
// Compiled by tsconfig.json here against the built declarations, and against the packed package by
// test/types/strict-recipes.package.test.ts; the runtime side (an explicit undefined means the
// default) is test/shared/explicit-undefined.test.ts.
import {
  normalizePhone,
  Variant1Client,
  Variant2Client,
  type ClientHooks,
  type ClientOptions,
  type Contact,
  type ContactCreateParams,
  type ContactSyncOptions,
  type ContactSyncRow,
  type ContactUpdateParams,
  type ConversationListParams,
  type ListRequestOptions,
  type Message,
  type NormalizePhoneOptions,
  type RequestOptions,
  type TemplateCatalog,
  type Variant1ContactListParams,
  type Variant1SendTemplateParams,
  type Variant1SendTextParams,
  type Variant2ContactListParams,
  type Variant2SendMessageParams,
  type Variant2SendTemplateParams,
  type Variant2SendTextParams,
  type AutomationTriggerParams,
  type CampaignCreateParams,
  type WebhookEndpointCreateParams,
} from 'bizmsg';
import {
  bulkOutcomes,
  memoryJournal,
  readCsv,
  sendBulk,
  toCsv,
  type BulkMessage,
  type BulkOutcomesOptions,
  type BulkWorkerOptions,
  type EnqueueBulkOptions,
  type ReadCsvOptions,
  type SendBulkOptions,
  type ToCsvOptions,
} from 'bizmsg/bulk';
import {
  connectMock,
  createMockServer,
  type ConnectMockOptions,
  type ControlApiDocumentOptions,
  type FaultSpec,
  type IdPage,
  type MockHttpServerOptions,
  type MockKeySpec,
  type MockPlan,
  type MockProxyOptions,
  type MockReplayOptions,
  type MockSeed,
  type SayOptions,
  type MockServerOptions,
  type OpenApiOptions,
  type RequestFilter,
  type TrafficOptions,
} from 'bizmsg/mock';
import type { RedisDedupeStoreOptions, RedisRateLimitStoreOptions, RedisStatusStoreOptions } from 'bizmsg/redis';
import {
  createStatusTracker,
  createWebhookHandler,
  memoryStatusStore,
  type DedupeStoreOptions,
  type FileStatusStoreOptions,
  type MemoryDedupeStoreOptions,
  type MemoryStatusStoreOptions,
  type ParseWebhookOptions,
  type SignWebhookOptions,
  type StatusStoreOptions,
  type StatusTrackerOptions,
  type TrackableMessage,
  type WaitForOptions,
  type WebhookHandlerOptions,
} from 'bizmsg/webhooks';

// ---------------------------------------------------------------------------------------------
// Every optional property, at any depth, of every input type takes an explicit undefined.

/** The optional keys of T (an index signature's keys left out: they are no optional property). */
type OptionalKeys<T> = {
  [K in keyof T]-?: string extends K
    ? never
    : number extends K
      ? never
      : Record<never, never> extends Pick<T, K>
        ? K
        : never;
}[keyof T];

/** What the check does not walk into: values users hand over whole, not options objects. */
type Opaque =
  | string
  | number
  | boolean
  | bigint
  | symbol
  | AbortSignal
  | Date
  | RegExp
  | URL
  | Uint8Array
  | PromiseLike<unknown>
  | ReadonlyMap<unknown, unknown>
  | ReadonlySet<unknown>
  | ((...args: never[]) => unknown);

/**
 * The paths of the optional properties of T, at any depth (arrays and records walked into), that
 * refuse `undefined` under exactOptionalPropertyTypes; never when there are none.
 */
type Refusing<T, Path extends string, Depth extends unknown[] = []> = Depth['length'] extends 5
  ? never
  : T extends Opaque
    ? never
    : T extends readonly (infer E)[]
      ? Refusing<E, `${Path}[]`, [...Depth, 0]>
      : T extends object
        ? {
            [K in keyof T & string]-?:
              | (K extends OptionalKeys<T>
                  ? { [P in K]: undefined } extends Pick<T, K>
                    ? never
                    : `${Path}.${K}`
                  : never)
              | Refusing<Exclude<T[K], undefined>, `${Path}.${K}`, [...Depth, 0]>;
          }[keyof T & string]
        : never;

/** Fails to compile, naming the property, unless `Paths` is never. */
type None<Paths extends never> = Paths;

export type EveryOptionalTakesUndefined = [
  // bizmsg
  None<Refusing<ClientOptions, 'ClientOptions'>>,
  None<Refusing<ClientHooks, 'ClientHooks'>>,
  None<Refusing<RequestOptions, 'RequestOptions'>>,
  None<Refusing<ListRequestOptions, 'ListRequestOptions'>>,
  None<Refusing<ContactCreateParams, 'ContactCreateParams'>>,
  None<Refusing<ContactUpdateParams, 'ContactUpdateParams'>>,
  None<Refusing<Variant1ContactListParams, 'Variant1ContactListParams'>>,
  None<Refusing<Variant2ContactListParams, 'Variant2ContactListParams'>>,
  None<Refusing<Variant1SendTextParams, 'Variant1SendTextParams'>>,
  None<Refusing<Variant1SendTemplateParams, 'Variant1SendTemplateParams'>>,
  None<Refusing<Variant2SendMessageParams, 'Variant2SendMessageParams'>>,
  None<Refusing<Variant2SendTextParams, 'Variant2SendTextParams'>>,
  None<Refusing<Variant2SendTemplateParams, 'Variant2SendTemplateParams'>>,
  None<Refusing<ConversationListParams, 'ConversationListParams'>>,
  None<Refusing<CampaignCreateParams, 'CampaignCreateParams'>>,
  None<Refusing<WebhookEndpointCreateParams, 'WebhookEndpointCreateParams'>>,
  None<Refusing<AutomationTriggerParams, 'AutomationTriggerParams'>>,
  None<Refusing<TemplateCatalog, 'TemplateCatalog'>>,
  None<Refusing<ContactSyncRow, 'ContactSyncRow'>>,
  None<Refusing<ContactSyncOptions, 'ContactSyncOptions'>>,
  None<Refusing<NormalizePhoneOptions, 'NormalizePhoneOptions'>>,
  // bizmsg/webhooks
  None<Refusing<WebhookHandlerOptions, 'WebhookHandlerOptions'>>,
  None<Refusing<ParseWebhookOptions, 'ParseWebhookOptions'>>,
  None<Refusing<SignWebhookOptions, 'SignWebhookOptions'>>,
  None<Refusing<MemoryDedupeStoreOptions, 'MemoryDedupeStoreOptions'>>,
  None<Refusing<DedupeStoreOptions, 'DedupeStoreOptions'>>,
  None<Refusing<StatusTrackerOptions, 'StatusTrackerOptions'>>,
  None<Refusing<WaitForOptions, 'WaitForOptions'>>,
  None<Refusing<MemoryStatusStoreOptions, 'MemoryStatusStoreOptions'>>,
  None<Refusing<FileStatusStoreOptions, 'FileStatusStoreOptions'>>,
  None<Refusing<StatusStoreOptions, 'StatusStoreOptions'>>,
  None<Refusing<TrackableMessage, 'TrackableMessage'>>,
  // bizmsg/mock
  None<Refusing<MockServerOptions, 'MockServerOptions'>>,
  None<Refusing<MockHttpServerOptions, 'MockHttpServerOptions'>>,
  None<Refusing<MockProxyOptions, 'MockProxyOptions'>>,
  None<Refusing<MockReplayOptions, 'MockReplayOptions'>>,
  None<Refusing<TrafficOptions, 'TrafficOptions'>>,
  None<Refusing<ConnectMockOptions, 'ConnectMockOptions'>>,
  None<Refusing<SayOptions, 'SayOptions'>>,
  None<Refusing<OpenApiOptions, 'OpenApiOptions'>>,
  None<Refusing<ControlApiDocumentOptions, 'ControlApiDocumentOptions'>>,
  None<Refusing<MockSeed, 'MockSeed'>>,
  None<Refusing<MockPlan, 'MockPlan'>>,
  None<Refusing<MockKeySpec, 'MockKeySpec'>>,
  None<Refusing<FaultSpec, 'FaultSpec'>>,
  None<Refusing<RequestFilter, 'RequestFilter'>>,
  None<Refusing<IdPage, 'IdPage'>>,
  // bizmsg/redis
  None<Refusing<RedisRateLimitStoreOptions, 'RedisRateLimitStoreOptions'>>,
  None<Refusing<RedisDedupeStoreOptions, 'RedisDedupeStoreOptions'>>,
  None<Refusing<RedisStatusStoreOptions, 'RedisStatusStoreOptions'>>,
  // bizmsg/bulk (the journal a user implements is not walked into: BulkJournal is implemented, not passed as data)
  None<Refusing<Omit<SendBulkOptions<unknown>, 'journal'>, 'SendBulkOptions'>>,
  None<Refusing<BulkMessage, 'BulkMessage'>>,
  None<Refusing<EnqueueBulkOptions<unknown>, 'EnqueueBulkOptions'>>,
  None<Refusing<BulkWorkerOptions, 'BulkWorkerOptions'>>,
  None<Refusing<ReadCsvOptions, 'ReadCsvOptions'>>,
  None<Refusing<BulkOutcomesOptions, 'BulkOutcomesOptions'>>,
  None<Refusing<ToCsvOptions, 'ToCsvOptions'>>,
];

// ---------------------------------------------------------------------------------------------
// As users write it: values that may be absent, and what bizmsg returned, passed straight on.

/** A value the program may or may not have, as `process.env` or an optional field gives it. */
declare function maybe<T>(value: T): T | undefined;

export async function clients(maybeSignal: AbortSignal | undefined): Promise<void> {
  const client = new Variant2Client({
    apiKey: process.env.BIZMSG_API_KEY,
    baseUrl: process.env.BIZMSG_BASE_URL,
    timeout: maybe(10_000),
    maxRetries: maybe(2),
    logLevel: maybe('warn'),
    headers: maybe({ 'x-app': 'shop' }),
    hooks: { beforeRequest: maybe([]) },
    phoneFormat: maybe('e164'),
  });
  const options: RequestOptions = { signal: maybeSignal, timeout: maybe(5_000), maxRetries: maybe(0) };
  const sent: Message = await client.messages.sendText(
    { to: '+4915112345678', messaging_account_id: 1, body: 'Hi' },
    options,
  );
  console.log(sent.id);

  // A page's params into the next call; a list's options from variables that may be unset.
  const params: ConversationListParams = { status: maybe('open'), assigned_to: maybe('agent'), page: maybe(1) };
  const page = await client.conversations.list(params, { signal: maybeSignal, prefetch: maybe(2) });
  if (page.hasNextPage()) await page.getNextPage({ signal: maybeSignal });
  await client.conversations.list({ ...params, page: page.meta?.current_page });
  await client.contacts
    .list({ search: maybe('Ada'), tag: maybe('vip'), per_page: maybe(50) })
    .toArray({ max: maybe(10) });

  // A contact read back goes into a sync row, and a sync's options may be unset.
  const contact: Contact = await client.contacts.get(1);
  const row: ContactSyncRow = contact;
  const syncOptions: ContactSyncOptions = { signal: maybeSignal, concurrency: maybe(4) };
  await client.contacts.sync([row, { phone: contact.phone, name: contact.name, email: contact.email }], syncOptions);

  const classic = new Variant1Client({ apiKey: process.env.BIZMSG_API_KEY, rateLimit: maybe(false) });
  await classic.contacts.list({ page: maybe(2), per_page: maybe(100) });
  console.log(normalizePhone('0049 151 1234 5678', { format: maybe('digits') }));
}

export async function tracking(client: Variant1Client, maybeSignal: AbortSignal | undefined): Promise<void> {
  const tracker = createStatusTracker({ store: maybe(memoryStatusStore({ ttl: maybe(60_000) })) });
  // What a send resolved with, as it is.
  const sent = await new Variant2Client().messages.sendText({
    to: '+4915112345678',
    messaging_account_id: 1,
    body: 'Hi',
  });
  await tracker.track(sent);
  await tracker.track(await client.messages.send({ to: '4915112345678', message: 'Hi' }));
  // Variant 1's client is a status source.
  await tracker.refresh(sent.id, client);
  await tracker.waitFor(sent.id, 'delivered', { timeout: maybe(30_000), signal: maybeSignal });

  const handler = createWebhookHandler({
    secret: process.env.WEBHOOK_SECRET ?? 'whsec',
    tracker,
    maxAgeSeconds: maybe(3600),
    on: { 'message.delivered': maybe((event) => console.log(event.data.message_id)) },
    dedupe: maybe(false),
  });
  console.log(handler);
}

export async function bulk(client: Variant2Client, maybeSignal: AbortSignal | undefined): Promise<void> {
  const journal = memoryJournal();
  const run = sendBulk(client, {
    id: 'job',
    recipients: [{ phone: '+4915112345678' }],
    message: (recipient) => ({ to: recipient.phone, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } }),
    journal,
    signal: maybeSignal,
    concurrency: maybe(8),
    expected: maybe(1),
    resendUnknown: maybe(true),
  });
  await run;
  const tracker = maybe(createStatusTracker());
  const outcomes = bulkOutcomes(journal, { id: 'job', tracker });
  console.log(await toCsv(outcomes, { columns: maybe(['key', 'outcome']) }));
  for await (const row of readCsv('phone\n+4915112345678\n', { limit: maybe(1024) })) console.log(row);
}

export async function mock(): Promise<void> {
  const server = createMockServer({
    variant: maybe(2),
    baseUrl: maybe('https://api.bizmsg.test/api/v1'),
    seed: { random: maybe(1), contacts: [{ name: 'Ada', phone: '+4915112345678', email: maybe('ada@example.com') }] },
    plans: { starter: { rateLimit: maybe(100), window: maybe(60_000) } },
    history: { requests: maybe(10) },
  });
  server.inject({ status: 500, times: maybe(1), route: maybe('/messages/send') });
  console.log(server.requests({ method: maybe('POST'), limit: maybe(5) }));
  const control = connectMock(server.baseUrl, { controlToken: process.env.BIZMSG_CONTROL_TOKEN, fetch: maybe(fetch) });
  await control.state({ deliveries: maybe(10) });
  await control.deliveries({ after: maybe(1), limit: maybe(5) });
}
