// Testing order notifications against the mock holding the account's template catalog: a send
// that the real service would refuse (a parameter too few, a language it lacks) fails here first.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { defineTemplates, ValidationError, Variant2Client } from 'bizmsg';
import { createMockServer, LIFECYCLE_MS } from 'bizmsg/mock';
import { notifyOrders, templates, type Order } from './order-updates.js';

const mock = createMockServer({ variant: 2, baseUrl: 'https://orders.bizmsg.test/api/v1', templates });
const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
beforeAll(() => mock.listen());
beforeEach(() => mock.reset());
afterAll(() => mock.close());

const ORDERS: Order[] = [
  { name: 'Ada', phone: '+49 151 1234 5678', language: 'de', id: 'A-17', tracking: 'x9' },
  { name: 'Ada Lovelace', phone: '0049151-12345678', language: 'de', id: 'A-18', tracking: 'y1' },
  { name: 'Grace', phone: '14155550123', language: 'en', id: 'B-2', tracking: 'z3' },
];

it('keeps one contact per number whatever its spelling, and sends each order its template', async () => {
  const sent = await notifyOrders(client, ORDERS);

  expect(mock.store.contacts.map((contact) => [contact.id, contact.name, contact.phone])).toEqual([
    [1, 'Ada Lovelace', '+4915112345678'],
    [2, 'Grace', '+14155550123'],
  ]);
  expect(sent.map((s) => s.contactId)).toEqual([1, 1, 2]);
  const message = mock.store.messages.get(sent[1]!.messageId)!;
  expect(message.content).toEqual({
    name: 'order_update',
    language: 'de',
    components: [
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ada Lovelace' },
          { type: 'text', text: 'A-18' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'y1' }] },
    ],
  });
  await mock.clock.advance(LIFECYCLE_MS.delivered);
  expect(sent.map((s) => mock.store.messages.get(s.messageId)!.status)).toEqual([
    'delivered',
    'delivered',
    'delivered',
  ]);
});

it('fails in the test when the account’s template takes another parameter than the code sends', async () => {
  // The account's order_update gained a third body parameter; the code was not updated.
  const changed = defineTemplates({
    order_update: {
      languages: ['en', 'de'],
      body: ['name', 'order_id', 'eta'],
      buttons: [{ sub_type: 'url', params: ['tracking'] }],
    },
  });
  const strict = createMockServer({ variant: 2, baseUrl: 'https://orders2.bizmsg.test/api/v1', templates: changed });
  strict.listen();
  try {
    const sending = notifyOrders(new Variant2Client({ apiKey: strict.apiKey, baseUrl: strict.baseUrl }), ORDERS);
    await expect(sending).rejects.toThrow(ValidationError);
    await expect(sending).rejects.toMatchObject({
      details: { 'content.components.body': ['takes 3 parameters (name, order_id, eta), got 2'] },
    });
  } finally {
    strict.close();
  }
});
