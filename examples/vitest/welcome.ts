// The code under test: your own module that uses bizmsg.
import { InvalidPhoneError, normalizePhone, type Variant2Client } from 'bizmsg';

/** What welcoming a new customer did. */
export type WelcomeResult =
  { sent: true; contactId: number | string; messageId: string } | { sent: false; reason: string };

/** Saves a new customer as a contact and sends them the `welcome` template. */
export async function welcomeCustomer(
  client: Variant2Client,
  customer: { name: string; phone: string },
): Promise<WelcomeResult> {
  let phone: string;
  try {
    phone = normalizePhone(customer.phone); // the client would refuse it before sending: say so instead
  } catch {
    return { sent: false, reason: 'invalid phone number' };
  }
  try {
    const contact = await client.contacts.create({ ...customer, phone, tags: ['new'] });
    const message = await client.messages.sendTemplate({
      to: contact.phone,
      messaging_account_id: 1,
      name: 'welcome',
      language: 'en',
      components: [],
    });
    return { sent: true, contactId: contact.id, messageId: message.id };
  } catch (error) {
    if (error instanceof InvalidPhoneError) return { sent: false, reason: 'invalid phone number' };
    throw error;
  }
}
