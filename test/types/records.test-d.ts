// The record types users read (issue 42): named interfaces without an index signature, each held
// to its zod schema, the one source of parsing, so that a field added to one and not the other fails here.
import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import type {
  Account,
  ApiPromise,
  AutomationExecution,
  Campaign,
  Contact,
  Conversation,
  ConversationWithMessages,
  DeleteResult,
  Message,
  Page,
  Variant1Client,
  Variant2Client,
  WebhookEndpoint,
} from '../../src/index.js';
import type { AccountSchema } from '../../src/schemas/account.js';
import type { AutomationExecutionSchema } from '../../src/schemas/automation.js';
import type { CampaignSchema } from '../../src/schemas/campaign.js';
import type { ListMeta, ListMetaSchema } from '../../src/schemas/common.js';
import type { ContactSchema, DeleteResultSchema } from '../../src/schemas/contact.js';
import type { ConversationSchema, ConversationWithMessagesSchema } from '../../src/schemas/conversation.js';
import type { MessageSchema } from '../../src/schemas/message.js';
import type { WebhookEndpointSchema } from '../../src/schemas/webhook-endpoint.js';
import type {
  DriftFinding,
  DriftFindingSchema,
  ProxyDriftReport,
  DriftReportSchema,
} from '../../src/mock/traffic/findings.js';
import type {
  DeliveryAttempt,
  DeliveryAttemptSchema,
  PendingTask,
  PendingTaskSchema,
  RecordedRequest,
  RecordedRequestSchema,
  SentEmail,
  SentEmailSchema,
  StoredCampaign,
  StoredCampaignSchema,
  StoredContact,
  StoredContactSchema,
  StoredConversation,
  StoredConversationSchema,
  StoredMessage,
  StoredMessageSchema,
  StoredWebhookEndpoint,
  StoredWebhookEndpointSchema,
} from '../../src/mock/state/records.js';
import type { KnownFields } from './known-fields.js';

describe('record types and their schemas', () => {
  it('hold the same fields, of the same types and optionality', () => {
    expectTypeOf<ListMeta>().toEqualTypeOf<KnownFields<z.output<typeof ListMetaSchema>>>();
    expectTypeOf<Account>().toEqualTypeOf<KnownFields<z.output<typeof AccountSchema>>>();
    expectTypeOf<Contact>().toEqualTypeOf<KnownFields<z.output<typeof ContactSchema>>>();
    expectTypeOf<DeleteResult>().toEqualTypeOf<KnownFields<NonNullable<z.output<typeof DeleteResultSchema>>>>();
    expectTypeOf<Message>().toEqualTypeOf<KnownFields<z.output<typeof MessageSchema>>>();
    expectTypeOf<Conversation>().toEqualTypeOf<KnownFields<z.output<typeof ConversationSchema>>>();
    expectTypeOf<ConversationWithMessages>().toEqualTypeOf<
      KnownFields<z.output<typeof ConversationWithMessagesSchema>>
    >();
    expectTypeOf<Campaign>().toEqualTypeOf<KnownFields<z.output<typeof CampaignSchema>>>();
    expectTypeOf<WebhookEndpoint>().toEqualTypeOf<KnownFields<z.output<typeof WebhookEndpointSchema>>>();
    expectTypeOf<AutomationExecution>().toEqualTypeOf<KnownFields<z.output<typeof AutomationExecutionSchema>>>();
  });

  it('would fail on a field in one and not the other', () => {
    expectTypeOf<Contact & { vip?: boolean }>().not.toEqualTypeOf<KnownFields<z.output<typeof ContactSchema>>>();
    expectTypeOf<Omit<Contact, 'email'>>().not.toEqualTypeOf<KnownFields<z.output<typeof ContactSchema>>>();
    expectTypeOf<Message>().not.toEqualTypeOf<KnownFields<z.output<typeof MessageSchema> & { error?: string }>>();
  });

  it('a parsed value is what the schema reads, unknown fields kept', () => {
    expectTypeOf<z.output<typeof ContactSchema>>().toExtend<Contact>();
    expectTypeOf<z.output<typeof MessageSchema>>().toExtend<Message>();
    expectTypeOf<z.output<typeof ConversationWithMessagesSchema>>().toExtend<ConversationWithMessages>();
  });
});

declare const v1: Variant1Client;
declare const v2: Variant2Client;

describe('reading a record', () => {
  it('is typed by the named interface', async () => {
    expectTypeOf(v1.messages.send).returns.toEqualTypeOf<ApiPromise<Message>>();
    expectTypeOf(v2.messages.sendText).returns.toEqualTypeOf<ApiPromise<Message>>();
    expectTypeOf(v1.automations.trigger).returns.toEqualTypeOf<ApiPromise<AutomationExecution>>();
    expectTypeOf(await v2.account.me()).toEqualTypeOf<Account>();
    expectTypeOf(await v2.contacts.get(1)).toEqualTypeOf<Contact>();
    expectTypeOf(await v2.campaigns.list()).toEqualTypeOf<Page<Campaign>>();
    expectTypeOf(await v2.webhooks.list()).toEqualTypeOf<Page<WebhookEndpoint>>();
    expectTypeOf((await v2.contacts.list()).meta).toEqualTypeOf<ListMeta | undefined>();
    expectTypeOf(await v2.conversations.list()).toEqualTypeOf<Page<Conversation>>();
    expectTypeOf(await v2.conversations.get(1)).toEqualTypeOf<ConversationWithMessages>();
  });

  it('a misspelled field is an error', async () => {
    const message = await v1.messages.status('1');
    // @ts-expect-error TS2551: Property 'staus' does not exist on type 'Message'. Did you mean 'status'?
    expectTypeOf(message.staus).toBeUnknown();
    const contact = await v2.contacts.get(1);
    // @ts-expect-error TS2551: Did you mean 'phone'?
    expectTypeOf(contact.phon).toBeUnknown();
  });

  it('a field bizmsg does not type is reached with a cast', async () => {
    const contact = await v2.contacts.get(1);
    expectTypeOf((contact as Contact & Record<string, unknown>).vip).toBeUnknown();
  });
});

describe("the mock's records and their schemas", () => {
  it('hold the same fields, of the same types and optionality (the control API document is generated from the schemas)', () => {
    expectTypeOf<StoredContact>().toEqualTypeOf<z.output<typeof StoredContactSchema>>();
    expectTypeOf<StoredMessage>().toEqualTypeOf<z.output<typeof StoredMessageSchema>>();
    expectTypeOf<StoredConversation>().toEqualTypeOf<z.output<typeof StoredConversationSchema>>();
    expectTypeOf<StoredCampaign>().toEqualTypeOf<z.output<typeof StoredCampaignSchema>>();
    expectTypeOf<StoredWebhookEndpoint>().toEqualTypeOf<z.output<typeof StoredWebhookEndpointSchema>>();
    expectTypeOf<DeliveryAttempt>().toEqualTypeOf<z.output<typeof DeliveryAttemptSchema>>();
    expectTypeOf<SentEmail>().toEqualTypeOf<z.output<typeof SentEmailSchema>>();
    expectTypeOf<RecordedRequest>().toEqualTypeOf<z.output<typeof RecordedRequestSchema>>();
    expectTypeOf<PendingTask>().toEqualTypeOf<z.output<typeof PendingTaskSchema>>();
    expectTypeOf<DriftFinding>().toEqualTypeOf<z.output<typeof DriftFindingSchema>>();
    expectTypeOf<ProxyDriftReport>().toEqualTypeOf<z.output<typeof DriftReportSchema>>();
  });

  it('would fail on a field in one and not the other', () => {
    expectTypeOf<StoredContact & { vip?: boolean }>().not.toEqualTypeOf<z.output<typeof StoredContactSchema>>();
    expectTypeOf<Omit<DeliveryAttempt, 'error'>>().not.toEqualTypeOf<z.output<typeof DeliveryAttemptSchema>>();
  });
});
