// The webhook event types users read (issue 42): one named interface per kind without an index
// signature, each held to its zod schema, the one source of parsing, so that a field added to one
// and not the other fails here.
import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  createWebhookHandler,
  parseWebhook,
  type CampaignCompletedData,
  type CampaignCompletedEvent,
  type ContactCreatedEvent,
  type ContactEventData,
  type ContactUpdatedData,
  type ContactUpdatedEvent,
  type ConversationClosedEvent,
  type ConversationCreatedEvent,
  type ConversationEventData,
  type MessageDeliveredData,
  type MessageDeliveredEvent,
  type MessageEventData,
  type MessageFailedData,
  type MessageFailedEvent,
  type MessageFailure,
  type MessageReadData,
  type MessageReadEvent,
  type MessageReceivedData,
  type MessageReceivedEvent,
  type MessageSentEvent,
  type WebhookEvent,
  type WebhookEventData,
  type WebhookEventKind,
  type WebhookEventOf,
} from '../../src/webhooks/index.js';
import type { WebhookEventSchema } from '../../src/schemas/webhook-event.js';
import type { KnownFields } from './known-fields.js';

/** The schema's output for one kind. */
type Parsed<K extends WebhookEventKind> = Extract<z.output<typeof WebhookEventSchema>, { event: K }>;

describe('event types and their schema', () => {
  it('hold the same fields, of the same types and optionality, kind by kind', () => {
    expectTypeOf<MessageReceivedEvent>().toEqualTypeOf<KnownFields<Parsed<'message.received'>>>();
    expectTypeOf<MessageSentEvent>().toEqualTypeOf<KnownFields<Parsed<'message.sent'>>>();
    expectTypeOf<MessageDeliveredEvent>().toEqualTypeOf<KnownFields<Parsed<'message.delivered'>>>();
    expectTypeOf<MessageReadEvent>().toEqualTypeOf<KnownFields<Parsed<'message.read'>>>();
    expectTypeOf<MessageFailedEvent>().toEqualTypeOf<KnownFields<Parsed<'message.failed'>>>();
    expectTypeOf<ConversationCreatedEvent>().toEqualTypeOf<KnownFields<Parsed<'conversation.created'>>>();
    expectTypeOf<ConversationClosedEvent>().toEqualTypeOf<KnownFields<Parsed<'conversation.closed'>>>();
    expectTypeOf<ContactCreatedEvent>().toEqualTypeOf<KnownFields<Parsed<'contact.created'>>>();
    expectTypeOf<ContactUpdatedEvent>().toEqualTypeOf<KnownFields<Parsed<'contact.updated'>>>();
    expectTypeOf<CampaignCompletedEvent>().toEqualTypeOf<KnownFields<Parsed<'campaign.completed'>>>();
  });

  it('hold every data interface to its kind', () => {
    expectTypeOf<MessageReceivedData>().toEqualTypeOf<KnownFields<Parsed<'message.received'>['data']>>();
    expectTypeOf<MessageEventData>().toEqualTypeOf<KnownFields<Parsed<'message.sent'>['data']>>();
    expectTypeOf<MessageDeliveredData>().toEqualTypeOf<KnownFields<Parsed<'message.delivered'>['data']>>();
    expectTypeOf<MessageReadData>().toEqualTypeOf<KnownFields<Parsed<'message.read'>['data']>>();
    expectTypeOf<MessageFailedData>().toEqualTypeOf<KnownFields<Parsed<'message.failed'>['data']>>();
    expectTypeOf<ConversationEventData>().toEqualTypeOf<KnownFields<Parsed<'conversation.created'>['data']>>();
    expectTypeOf<ConversationEventData>().toEqualTypeOf<KnownFields<Parsed<'conversation.closed'>['data']>>();
    expectTypeOf<ContactEventData>().toEqualTypeOf<KnownFields<Parsed<'contact.created'>['data']>>();
    expectTypeOf<ContactUpdatedData>().toEqualTypeOf<KnownFields<Parsed<'contact.updated'>['data']>>();
    expectTypeOf<CampaignCompletedData>().toEqualTypeOf<KnownFields<Parsed<'campaign.completed'>['data']>>();
    expectTypeOf<MessageFailure | string | undefined>().toEqualTypeOf<
      KnownFields<Parsed<'message.failed'>['data']['error']>
    >();
  });

  it('would fail on a field in one and not the other', () => {
    expectTypeOf<MessageDeliveredEvent & { data: { seen?: boolean } }>().not.toEqualTypeOf<
      KnownFields<Parsed<'message.delivered'>>
    >();
    expectTypeOf<Omit<MessageReadData, 'read_at'>>().not.toEqualTypeOf<KnownFields<Parsed<'message.read'>['data']>>();
    expectTypeOf<MessageFailedData>().not.toEqualTypeOf<
      KnownFields<Parsed<'message.failed'>['data'] & { reason?: string }>
    >();
    expectTypeOf<ContactEventData>().not.toEqualTypeOf<KnownFields<Parsed<'contact.updated'>['data']>>();
  });

  it('WebhookEvent is the union of the named kinds, and a parsed event is one of them (unknown fields kept)', () => {
    expectTypeOf<WebhookEvent>().toEqualTypeOf<
      | MessageReceivedEvent
      | MessageSentEvent
      | MessageDeliveredEvent
      | MessageReadEvent
      | MessageFailedEvent
      | ConversationCreatedEvent
      | ConversationClosedEvent
      | ContactCreatedEvent
      | ContactUpdatedEvent
      | CampaignCompletedEvent
    >();
    expectTypeOf<z.output<typeof WebhookEventSchema>>().toExtend<WebhookEvent>();
    expectTypeOf<WebhookEvent['event']>().toEqualTypeOf<WebhookEventKind>();
  });
});

describe('reading an event', () => {
  it('narrows by `event` to the named interface', () => {
    const event = parseWebhook('{}', 'sig', 'secret');
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    switch (event.event) {
      case 'message.delivered':
        expectTypeOf(event).toEqualTypeOf<MessageDeliveredEvent>();
        expectTypeOf(event.data).toEqualTypeOf<MessageDeliveredData>();
        expectTypeOf(event.data.delivered_at).toEqualTypeOf<string>();
        break;
      case 'message.failed':
        expectTypeOf(event).toEqualTypeOf<MessageFailedEvent>();
        expectTypeOf(event.data.error).toEqualTypeOf<MessageFailure | string | undefined>();
        break;
      case 'contact.updated':
        expectTypeOf(event.data).toEqualTypeOf<ContactUpdatedData>();
        expectTypeOf(event.data.changed).toEqualTypeOf<string[] | undefined>();
        break;
      case 'conversation.closed':
        expectTypeOf(event).toEqualTypeOf<ConversationClosedEvent>();
        break;
      default:
        expectTypeOf(event.event).toEqualTypeOf<
          Exclude<WebhookEventKind, 'message.delivered' | 'message.failed' | 'contact.updated' | 'conversation.closed'>
        >();
    }
  });

  it('names each kind through WebhookEventOf and WebhookEventData', () => {
    expectTypeOf<WebhookEventOf<'message.received'>>().toEqualTypeOf<MessageReceivedEvent>();
    expectTypeOf<WebhookEventOf<'message.delivered'>>().toEqualTypeOf<MessageDeliveredEvent>();
    expectTypeOf<WebhookEventOf<'campaign.completed'>>().toEqualTypeOf<CampaignCompletedEvent>();
    expectTypeOf<WebhookEventData<'message.sent'>>().toEqualTypeOf<MessageEventData>();
    expectTypeOf<WebhookEventData<'message.read'>>().toEqualTypeOf<MessageReadData>();
    expectTypeOf<WebhookEventData<'conversation.created'>>().toEqualTypeOf<ConversationEventData>();
    expectTypeOf<WebhookEventData<'contact.created'>>().toEqualTypeOf<ContactEventData>();
  });

  it('gives each `on` handler its named event', () => {
    createWebhookHandler({
      secret: 's',
      on: {
        'message.received': (event) => expectTypeOf(event).toEqualTypeOf<MessageReceivedEvent>(),
        'message.delivered': (event) => expectTypeOf(event).toEqualTypeOf<MessageDeliveredEvent>(),
        'contact.created': ({ data }) => expectTypeOf(data).toEqualTypeOf<ContactEventData>(),
      },
    });
  });

  it('makes a misspelled field a compile error', () => {
    const event = parseWebhook('{}', 'sig', 'secret');
    if (event.event === 'message.delivered') {
      // @ts-expect-error Property 'staus' does not exist on type 'MessageDeliveredData'. Did you mean 'status'?
      expectTypeOf(event.data.staus).toBeUnknown();
      // @ts-expect-error Property 'timestmp' does not exist on type 'MessageDeliveredEvent'.
      expectTypeOf(event.timestmp).toBeUnknown();
    }
    if (event.event === 'message.failed' && typeof event.data.error === 'object') {
      // @ts-expect-error Property 'mesage' does not exist on type 'MessageFailure'.
      expectTypeOf(event.data.error.mesage).toBeUnknown();
    }
    // A field this version does not know, kept at run time, is reached with a cast.
    expectTypeOf((event.data as unknown as Record<string, unknown>).later_field).toBeUnknown();
  });
});
