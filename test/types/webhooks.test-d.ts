import { describe, expectTypeOf, it } from 'vitest';
import { createWebhookHandler, parseWebhook, type MessageDeliveredEvent, type WebhookEvent } from '../../src/webhooks/index.js';

describe('webhook types', () => {
  it('narrows events by kind', () => {
    const event = parseWebhook('{}', 'sig', 'secret');
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    if (event.event === 'message.delivered') {
      expectTypeOf(event).toEqualTypeOf<MessageDeliveredEvent>();
      expectTypeOf(event.data.message_id).toEqualTypeOf<string>();
    }
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

  it('returns a fetch-style handler', () => {
    expectTypeOf(createWebhookHandler({ secret: 's' })).toEqualTypeOf<(request: Request) => Promise<Response>>();
  });
});
