// The code under test: order notifications, a typed template sent to contacts upserted from a
// list whose numbers come in mixed spellings.
import { defineTemplates, type Variant2Client } from 'bizmsg';

/** The account's templates, declared once; the test hands the mock the same catalog. */
export const templates = defineTemplates({
  order_update: {
    languages: ['en', 'de'],
    body: ['name', 'order_id'],
    buttons: [{ sub_type: 'url', params: ['tracking'] }],
  },
});

/** An order to tell its customer about. */
export interface Order {
  name: string;
  /** As the shop has it: `+49 151 1234 5678`, `0049151...`, `49151...`. */
  phone: string;
  language: 'en' | 'de';
  id: string;
  tracking: string;
}

/**
 * Makes each order's customer a contact (one per number, however it is spelt; the newest name
 * wins) and sends them the `order_update` template; answers what was sent, in order.
 */
export async function notifyOrders(
  client: Variant2Client,
  orders: readonly Order[],
): Promise<Array<{ contactId: number | string; messageId: string }>> {
  const sent = [];
  for (const order of orders) {
    const { contact } = await client.contacts.upsert({ phone: order.phone, name: order.name });
    const message = await client.messages.sendTemplate({
      to: contact.phone,
      messaging_account_id: 1,
      ...templates.order_update({
        language: order.language,
        name: order.name,
        order_id: order.id,
        tracking: order.tracking,
      }),
    });
    sent.push({ contactId: contact.id, messageId: message.id });
  }
  return sent;
}
