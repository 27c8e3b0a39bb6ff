// All state of a mock: what it stores of each resource, keys, deliveries and e-mails.
import type { Scope } from '../../contract/scopes.js';
import { bytesOf, Recent } from './recent.js';
import type {
  DeliveryAttempt,
  SentEmail,
  StoredCampaign,
  StoredContact,
  StoredConversation,
  StoredMessage,
  StoredWebhookEndpoint,
} from './records.js';

/** An API key. */
export interface MockKey {
  /** The API key, as clients send it. */
  key: string;
  /** The scopes it grants. */
  scopes: readonly Scope[];
  /** The name of its plan, which sets its rate limit. */
  plan: string;
  /** True once it is revoked: every request with it answers 401 `KEY_REVOKED`. */
  revoked: boolean;
}

/**
 * Read access to a mock's state. `contacts` and `messages` read alike: each finds a record by id
 * (`get`, `has`), counts them (`size`) and lists them oldest first (`values()`). Besides, the
 * contacts are an array (the API pages them in creation order) and the messages a Map by id
 * (the oldest are forgotten past a bound, which a Map drops at no cost).
 */
export interface MockState {
  /** Every contact, in creation order, and found by id. */
  readonly contacts: ContactList;
  /** The messages kept by id, oldest first (the oldest are forgotten past a bound). */
  readonly messages: ReadonlyMap<string, StoredMessage>;
  /** Every conversation, in creation order. */
  readonly conversations: readonly StoredConversation[];
  /** Every campaign, in creation order. */
  readonly campaigns: readonly StoredCampaign[];
  /** Every webhook endpoint registered, in creation order. */
  readonly webhookEndpoints: readonly StoredWebhookEndpoint[];
  /** The API keys the mock knows, by key. */
  readonly keys: ReadonlyMap<string, MockKey>;
  /** Every webhook delivery attempt kept, oldest first. */
  readonly deliveries: readonly DeliveryAttempt[];
  /** The notification e-mails sent to the account owner, oldest first. */
  readonly emails: readonly SentEmail[];
}

/**
 * The most bytes the messages kept may hold together, counted as `Recent` counts them: past it the
 * oldest are forgotten (as a mail catcher drops its oldest mail), so that a flood of big messages or
 * a run of weeks stays bounded.
 */
export const MESSAGES_BYTES = 64 * 1_048_576;

/** Kinds of records with their own id sequence. */
type IdKind = 'contact' | 'message' | 'conversation' | 'campaign' | 'webhook' | 'delivery';

/** The account the keys belong to. */
export const ACCOUNT = { id: 1, name: 'Acme Test Account', email: 'owner@acme.test' } as const;

/**
 * All state of a mock. Contacts are kept in an array in creation order, so that a page is a
 * slice (its cost does not grow with the number of contacts), plus an index by id and one by
 * number (`phoneKey`: one contact per number, whichever spelling it was stored in). Delivery
 * attempts and e-mails keep the newest `history` of each, so that a long run stays bounded.
 */
export class MockStore implements MockState {
  readonly contactsById = new Map<number, StoredContact>();
  readonly contacts = new StoredContactList(this.contactsById);
  readonly #contactsByPhone = new Map<string, StoredContact>();
  readonly messages = new Map<string, StoredMessage>();
  readonly conversations: StoredConversation[] = [];
  readonly conversationsByPhone = new Map<string, StoredConversation>();
  readonly #conversationsById = new Map<number, StoredConversation>();
  /** What each message kept holds, in bytes, and all of them together. */
  readonly #messageBytes = new Map<string, number>();
  #messagesBytes = 0;
  #outboundSent = 0;
  readonly campaigns: StoredCampaign[] = [];
  readonly webhookEndpoints: StoredWebhookEndpoint[] = [];
  readonly keys = new Map<string, MockKey>();
  readonly deliveryLog: Recent<DeliveryAttempt>;
  readonly emailLog: Recent<SentEmail>;
  readonly automationRuns: Array<{ id: string; automation_id: string | number; at: number }> = [];
  #ids = { contact: 0, message: 0, conversation: 0, campaign: 0, webhook: 0, delivery: 0 };

  /** `history`: how many delivery attempts (and e-mails) to keep, newest first (within `HISTORY_BYTES` each). */
  constructor(history: number) {
    this.deliveryLog = new Recent(history, attemptBytes);
    this.emailLog = new Recent(history, (email) => bytesOf(email.to, email.subject, email.body));
  }

  /** The delivery attempts kept, oldest first. */
  get deliveries(): readonly DeliveryAttempt[] {
    return this.deliveryLog.toArray();
  }

  /** The e-mails kept, oldest first. */
  get emails(): readonly SentEmail[] {
    return this.emailLog.toArray();
  }

  /** The next id of a kind (1, 2, ...). */
  nextId(kind: IdKind): number {
    this.#ids[kind] += 1;
    return this.#ids[kind];
  }

  /** Adds a contact; its number must be no other contact's (`contactWith`). */
  addContact(contact: StoredContact): void {
    this.contacts.push(contact);
    this.contactsById.set(contact.id, contact);
    this.#contactsByPhone.set(phoneKey(contact.phone), contact);
  }

  /** Changes fields of a contact; a new number must be no other contact's (`contactWith`). */
  updateContact(contact: StoredContact, changes: Partial<StoredContact>): void {
    this.#contactsByPhone.delete(phoneKey(contact.phone));
    Object.assign(contact, changes);
    this.#contactsByPhone.set(phoneKey(contact.phone), contact);
  }

  /** Removes a contact. */
  removeContact(contact: StoredContact): void {
    this.contacts.splice(this.contacts.indexOf(contact), 1);
    this.contactsById.delete(contact.id);
    this.#contactsByPhone.delete(phoneKey(contact.phone));
  }

  /** The contact with a number, whatever its `+`. */
  contactWith(phone: string): StoredContact | undefined {
    return this.#contactsByPhone.get(phoneKey(phone));
  }

  /** Adds a conversation. */
  addConversation(conversation: StoredConversation): void {
    this.conversations.push(conversation);
    this.conversationsByPhone.set(phoneKey(conversation.phone), conversation);
    this.#conversationsById.set(conversation.id, conversation);
  }

  /** Outbound messages sent since the seed, forgotten ones too (a plan's `maxMessages` counts them). */
  get outboundSent(): number {
    return this.#outboundSent;
  }

  /** Adds the newest message to its conversation; the oldest messages are forgotten while all hold more than `MESSAGES_BYTES`. */
  addMessage(message: StoredMessage, conversation: StoredConversation): void {
    const bytes = bytesOf(JSON.stringify(message));
    this.messages.set(message.id, message);
    this.#messageBytes.set(message.id, bytes);
    this.#messagesBytes += bytes;
    conversation.message_ids.push(message.id);
    if (message.direction === 'outbound') this.#outboundSent += 1;
    while (this.#messagesBytes > MESSAGES_BYTES && this.messages.size > 1) this.#forgetOldestMessage();
  }

  #forgetOldestMessage(): void {
    const [id, oldest] = this.messages.entries().next().value!;
    this.messages.delete(id);
    this.#messagesBytes -= this.#messageBytes.get(id) ?? 0;
    this.#messageBytes.delete(id);
    // The oldest message of all is the oldest of its conversation: first in its list.
    const ids = this.#conversationsById.get(oldest.conversation_id)?.message_ids;
    if (ids?.[0] === id) ids.shift();
  }

  /** Removes a webhook endpoint (the dispatcher drops its pending retries). */
  removeWebhookEndpoint(endpoint: StoredWebhookEndpoint): void {
    this.webhookEndpoints.splice(this.webhookEndpoints.indexOf(endpoint), 1);
  }

  /** The conversation with a number, whatever its `+`. */
  conversationWith(phone: string): StoredConversation | undefined {
    return this.conversationsByPhone.get(phoneKey(phone));
  }
}

/** What a delivery attempt holds: the body sent (whole: a redelivery sends it again), what came back (cut), headers. */
function attemptBytes({ url, request, response, error }: DeliveryAttempt): number {
  const headers = [...Object.entries(request.headers), ...Object.entries(response?.headers ?? {})].flat();
  return bytesOf(url, request.body, response?.body, error, ...headers);
}

/** A phone number without its optional `+`, to compare numbers written either way. */
export function phoneKey(phone: string): string {
  return phone.startsWith('+') ? phone.slice(1) : phone;
}

/**
 * The contacts a mock keeps, oldest first: an array (`map`, `filter`, `length`, `[0]`), that also
 * reads as `MockState.messages` does: `get(id)`, `has(id)`, `size`, and `values()` (the contacts,
 * oldest first).
 */
export interface ContactList extends ReadonlyArray<StoredContact> {
  /** The contact with this id (a number, or its text as a client's `Contact.id` may hold it), or undefined. */
  get(id: number | string): StoredContact | undefined;
  /** Whether a contact has this id (a number, or its text). */
  has(id: number | string): boolean;
  /** How many contacts there are (`length`, named as a Map names it). */
  readonly size: number;
}

/** The store's contact list: pushed and spliced by the store, found by id through the store's index. */
export class StoredContactList extends Array<StoredContact> implements ContactList {
  /** `map`, `filter`, `slice` and the rest give plain arrays: a page of contacts is no list of its own. */
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  readonly #byId: ReadonlyMap<number, StoredContact>;

  /** `byId`: the store's index of the same contacts. */
  constructor(byId: ReadonlyMap<number, StoredContact>) {
    super();
    this.#byId = byId;
  }

  get(id: number | string): StoredContact | undefined {
    return this.#byId.get(Number(id));
  }

  has(id: number | string): boolean {
    return this.#byId.has(Number(id));
  }

  get size(): number {
    return this.length;
  }
}
