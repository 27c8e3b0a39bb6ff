import { createServer } from 'node:http';
import express from 'express';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createWebhookHandler,
  defineWebhookHandlers,
  memoryDedupeStore,
  parseWebhook,
  signWebhookAsync,
  webhookMiddleware,
  type DedupeStore,
  type WebhookEvent,
  type WebhookEventData,
  type WebhookEventOf,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import type { OpenEnum } from '../../src/index.js';
import type { MessageStatus } from '../../src/schemas/message.js';

describe('webhook types', () => {
  it('narrows events by kind', () => {
    const event = parseWebhook('{}', 'sig', 'secret');
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    if (event.event === 'message.delivered') {
      expectTypeOf(event).toEqualTypeOf<WebhookEventOf<'message.delivered'>>();
      expectTypeOf(event.data.message_id).toEqualTypeOf<string>();
    }
  });

  it('types the data of every kind: what the spec shows required (message.delivered), every guessed field optional, unknown ones out of the types', () => {
    createWebhookHandler({
      secret: 's',
      on: {
        'message.received': ({ data }) => {
          expectTypeOf(data.message_id).toEqualTypeOf<string | undefined>();
          expectTypeOf(data.status).toEqualTypeOf<OpenEnum<MessageStatus> | undefined>();
          expectTypeOf(data.from).toEqualTypeOf<string | undefined>();
          expectTypeOf(data.to).toEqualTypeOf<string | undefined>();
          expectTypeOf(data.body).toEqualTypeOf<string | undefined>();
          expectTypeOf(data.conversation_id).toEqualTypeOf<string | number | undefined>();
        },
        'message.sent': ({ data }) => {
          expectTypeOf(data.message_id).toEqualTypeOf<string | undefined>();
          expectTypeOf(data.to).toEqualTypeOf<string | undefined>();
          expectTypeOf(data.status).toEqualTypeOf<OpenEnum<MessageStatus> | undefined>();
          // @ts-expect-error `from` is no field of an outbound message (kept at run time when sent, out of the types)
          expectTypeOf(data.from).toEqualTypeOf<string>();
        },
        'message.delivered': ({ data }) => {
          expectTypeOf(data.message_id).toEqualTypeOf<string>();
          expectTypeOf(data.to).toEqualTypeOf<string>();
          expectTypeOf(data.status).toEqualTypeOf<OpenEnum<MessageStatus>>();
          expectTypeOf(data.delivered_at).toEqualTypeOf<string>();
          expectTypeOf(data.conversation_id).toEqualTypeOf<string | number | undefined>();
        },
        'message.read': ({ data }) => {
          expectTypeOf(data.to).toEqualTypeOf<string | undefined>();
          expectTypeOf(data.read_at).toEqualTypeOf<string | undefined>();
          expectTypeOf(data.delivered_at).toEqualTypeOf<string | undefined>();
        },
        'message.failed': ({ data }) => {
          expectTypeOf(data.message_id).toEqualTypeOf<string | undefined>();
          expectTypeOf(data.failed_at).toEqualTypeOf<string | undefined>();
          // Why it failed: { code, message } (a numeric code kept), or words alone.
          const error = data.error;
          if (typeof error === 'object') {
            expectTypeOf(error.code).toEqualTypeOf<string | number | undefined>();
            expectTypeOf(error.message).toEqualTypeOf<string | undefined>();
          } else expectTypeOf(error).toEqualTypeOf<string | undefined>();
        },
        'conversation.created': ({ data }) => {
          expectTypeOf(data.conversation_id).toEqualTypeOf<string | number | undefined>();
          expectTypeOf(data.phone).toEqualTypeOf<string | undefined>();
        },
        'conversation.closed': ({ data }) =>
          expectTypeOf(data.conversation_id).toEqualTypeOf<string | number | undefined>(),
        'contact.created': ({ data }) => {
          expectTypeOf(data.id).toEqualTypeOf<string | number | undefined>();
          expectTypeOf(data.phone).toEqualTypeOf<string | undefined>();
          expectTypeOf(data.tags).toEqualTypeOf<string[] | undefined>();
        },
        'contact.updated': ({ data }) => {
          expectTypeOf(data.id).toEqualTypeOf<string | number | undefined>();
          expectTypeOf(data.changed).toEqualTypeOf<string[] | undefined>();
        },
        'campaign.completed': ({ data }) => {
          expectTypeOf(data.campaign_id).toEqualTypeOf<string | number | undefined>();
          expectTypeOf(data.sent_count).toEqualTypeOf<number | undefined>();
          expectTypeOf(data.completed_at).toEqualTypeOf<string | undefined>();
        },
      },
    });
    // @ts-expect-error a field this version does not know is kept at run time, out of the types
    expectTypeOf<WebhookEventData<'message.sent'>['later_field']>().toEqualTypeOf<unknown>();
    // @ts-expect-error not an event kind
    expectTypeOf<WebhookEventData<'message.bounced'>>();
  });

  it('types each `on` handler with its event', () => {
    createWebhookHandler({
      secret: 's',
      on: {
        'message.delivered': (event) => expectTypeOf(event.data.delivered_at).toEqualTypeOf<string>(),
        'contact.created': (event) => expectTypeOf(event.event).toEqualTypeOf<'contact.created'>(),
      },
    });
    // @ts-expect-error not an event kind
    createWebhookHandler({ secret: 's', on: { 'message.bounced': () => undefined } });
    // @ts-expect-error a parsed object is not a payload
    parseWebhook({ event: 'x' }, 'sig', 'secret');
  });

  it('types the handlers of an options object written apart, through defineWebhookHandlers or satisfies', () => {
    const options = defineWebhookHandlers({
      secret: 's',
      on: { 'message.delivered': (event) => expectTypeOf(event.data.delivered_at).toEqualTypeOf<string>() },
      onEvent: (event) => expectTypeOf(event).toEqualTypeOf<WebhookEvent>(),
    });
    expectTypeOf(options).toEqualTypeOf<WebhookHandlerOptions>();
    createWebhookHandler(options);
    webhookMiddleware(options);
    const satisfying = {
      secret: 's',
      on: { 'message.read': (event) => expectTypeOf(event.event).toEqualTypeOf<'message.read'>() },
    } satisfies WebhookHandlerOptions;
    createWebhookHandler(satisfying);
    // @ts-expect-error not an event kind
    defineWebhookHandlers({ secret: 's', on: { 'message.bounced': () => undefined } });
    // Why the helper exists: a bare object literal gives its handlers no types (TS7006 under strict).
    // @ts-expect-error Parameter 'event' implicitly has an 'any' type.
    const bare = { secret: 's', on: { 'message.delivered': (event) => event } };
    createWebhookHandler(bare);
  });

  it('serves node:http and Express as they are typed', () => {
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- what users write: node:http ignores the promise, which never rejects
    createServer(webhookMiddleware({ secret: 's' }));
    express().post('/webhooks', webhookMiddleware({ secret: 's' }));
    expectTypeOf(signWebhookAsync('{}', 's')).toEqualTypeOf<Promise<string>>();
  });

  it('turns the replay defaults off with false, and takes a number or a store instead', () => {
    expectTypeOf<WebhookHandlerOptions['maxAgeSeconds']>().toEqualTypeOf<number | false | undefined>();
    expectTypeOf<WebhookHandlerOptions['dedupe']>().toEqualTypeOf<DedupeStore | false | undefined>();
    createWebhookHandler({ secret: 's', maxAgeSeconds: false, dedupe: false });
    webhookMiddleware({ secret: 's', maxAgeSeconds: 600, dedupe: memoryDedupeStore() });
    // @ts-expect-error true is not a way to say the default
    createWebhookHandler({ secret: 's', dedupe: true });
  });

  it('returns a fetch-style handler', () => {
    expectTypeOf(createWebhookHandler({ secret: 's' })).toEqualTypeOf<(request: Request) => Promise<Response>>();
  });
});
