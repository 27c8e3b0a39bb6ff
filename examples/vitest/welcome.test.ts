// A vitest suite against bizmsg's mock: the whole service in this process, on msw, with a
// virtual clock. Its handlers are composed with your own (here: your webhook receiver).
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { Variant2Client } from 'bizmsg';
import { createMockServer, LIFECYCLE_MS } from 'bizmsg/mock';
import { createWebhookHandler, type WebhookEvent } from 'bizmsg/webhooks';
import { welcomeCustomer } from './welcome.js';

const RECEIVER = 'https://my-app.test/webhooks/bizmsg';
const SECRET = 'whsec_test';

const mock = createMockServer({ variant: 2 });
const received: WebhookEvent[] = [];
const receive = createWebhookHandler({ secret: SECRET, onEvent: (event) => void received.push(event) });
// The mock's webhook deliveries to RECEIVER reach your handler without a real server.
const server = setupServer(
  ...mock.handlers,
  http.post(RECEIVER, ({ request }) => receive(request)),
);
const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  mock.reset(); // back to the seed: no contacts, no messages, no endpoints
  received.length = 0;
});
afterAll(() => {
  server.close();
  mock.pause(); // the mock's clock timer
});

it('saves the customer and sends the welcome template', async () => {
  const result = await welcomeCustomer(client, { name: 'Ada', phone: '+4915112345678' });

  expect(result).toEqual({ sent: true, contactId: 1, messageId: 'msg_1' });
  expect(mock.store.contacts.map((contact) => [contact.name, contact.tags])).toEqual([['Ada', ['new']]]);
  expect([...mock.store.messages.keys()]).toEqual(['msg_1']);
});

it('reports an invalid phone number instead of throwing', async () => {
  expect(await welcomeCustomer(client, { name: 'Bob', phone: 'not a phone' })).toEqual({
    sent: false,
    reason: 'invalid phone number',
  });
  expect(mock.store.contacts).toEqual([]);
});

it('gets the delivery as a signed webhook once the clock moves on', async () => {
  await client.webhooks.create({ url: RECEIVER, events: ['message.delivered'], secret: SECRET });
  await welcomeCustomer(client, { name: 'Ada', phone: '+4915112345678' });

  await mock.clock.advance(LIFECYCLE_MS.delivered); // resolves once the webhook POST settled

  expect(
    received.map((event) => [event.event, 'message_id' in event.data ? event.data.message_id : undefined]),
  ).toEqual([['message.delivered', 'msg_1']]);
  expect(mock.deliveries.map((attempt) => attempt.status)).toEqual([200]);
});
