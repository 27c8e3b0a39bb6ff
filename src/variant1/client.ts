// Variant1Client: X-API-Key authentication, `{success, data}` envelopes.
import { HttpClient } from '../core/call/http-client.js';
import type { ClientOptions } from '../resources/client-options.js';
import { phoneFormatOf } from '../resources/phones.js';
import { ServiceClient } from '../core/call/service-client.js';
import { Variant1Account } from '../resources/account.js';
import { Variant1Automations } from './automations.js';
import { Variant1Contacts } from './contacts.js';
import { Variant1Messages } from './messages.js';
import { variant1Protocol } from './protocol.js';

/**
 * Client of Variant 1 of the service (`X-API-Key` authentication).
 *
 * @example
 * ```ts
 * const client = new Variant1Client(); // BIZMSG_API_KEY and BIZMSG_BASE_URL from the environment
 * const sent = await client.messages.send({ to: '4915112345678', message: 'Your order has shipped.' });
 * const { status } = await client.messages.status(sent.id);
 * ```
 */
export class Variant1Client extends ServiceClient {
  /** Text and template messages, delivery status. */
  readonly messages: Variant1Messages;
  /** Contacts: list, create, get, update. */
  readonly contacts: Variant1Contacts;
  /** Automation triggers. */
  readonly automations: Variant1Automations;
  /** Account information. */
  readonly account: Variant1Account;

  constructor(options?: ClientOptions) {
    const http = new HttpClient(variant1Protocol, options);
    const phoneFormat = phoneFormatOf(options);
    super(http);
    this.messages = new Variant1Messages(http, phoneFormat);
    this.contacts = new Variant1Contacts(http, phoneFormat);
    this.automations = new Variant1Automations(http, phoneFormat);
    this.account = new Variant1Account(http);
  }
}
