// Variant2Client: bearer authentication, `{data}` envelopes.
import { HttpClient } from '../core/call/http-client.js';
import type { ClientOptions } from '../resources/client-options.js';
import { phoneFormatOf } from '../resources/phones.js';
import { ServiceClient } from '../core/call/service-client.js';
import { Variant2Account } from '../resources/account.js';
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
  readonly contacts: Variant2Contacts;
  /** Text and template messages. */
  readonly messages: Variant2Messages;
  /** Conversations and their messages. */
  readonly conversations: Variant2Conversations;
  /** Campaigns. */
  readonly campaigns: Variant2Campaigns;
  /** Webhook endpoint registration. */
  readonly webhooks: Variant2Webhooks;
  /** Account information. */
  readonly account: Variant2Account;

  constructor(options?: ClientOptions) {
    const http = new HttpClient(variant2Protocol, options);
    const phoneFormat = phoneFormatOf(options);
    super(http);
    this.contacts = new Variant2Contacts(http, phoneFormat);
    this.messages = new Variant2Messages(http, phoneFormat);
    this.conversations = new Variant2Conversations(http);
    this.campaigns = new Variant2Campaigns(http);
    this.webhooks = new Variant2Webhooks(http);
    this.account = new Variant2Account(http);
  }
}
