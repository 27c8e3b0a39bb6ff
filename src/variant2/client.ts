import type { ClientOptions } from '../core/options.js';
import { ServiceClient } from '../core/service-client.js';
import { AccountResource } from '../resources/account.js';
import { Variant2Campaigns } from './campaigns.js';
import { Variant2Contacts } from './contacts.js';
import { Variant2Conversations } from './conversations.js';
import { Variant2Messages } from './messages.js';
import { variant2Protocol } from './protocol.js';
import { Variant2Webhooks } from './webhooks.js';

/**
 * Client of Variant 2 of the service (`Authorization: Bearer` authentication).
 *
 * @example
 * ```ts
 * const client = new Variant2Client(); // BIZMSG_API_KEY and BIZMSG_BASE_URL from the environment
 * const contact = await client.contacts.create({ name: 'Ada', phone: '+4915112345678' });
 * await client.messages.sendText({ to: contact.phone, messaging_account_id: 1, body: 'Hello!' });
 * ```
 */
export class Variant2Client extends ServiceClient {
  /** Contacts: list (search, tag), create, get, update, delete. */
  readonly contacts = new Variant2Contacts(this.http);
  /** Text and template messages. */
  readonly messages = new Variant2Messages(this.http);
  /** Conversations and their messages. */
  readonly conversations = new Variant2Conversations(this.http);
  /** Campaigns. */
  readonly campaigns = new Variant2Campaigns(this.http);
  /** Webhook endpoint registration. */
  readonly webhooks = new Variant2Webhooks(this.http);
  /** Account information. */
  readonly account = new AccountResource(this.http);

  constructor(options?: ClientOptions) {
    super(variant2Protocol, options);
  }
}
