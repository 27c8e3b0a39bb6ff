// All state of a mock: what it stores of each resource, keys, deliveries and e-mails.
import type { CampaignStatus } from '../../schemas/campaign.js';
import type { ConversationStatus } from '../../schemas/conversation.js';
import type { MessageStatus } from '../../schemas/message.js';
import type { Scope } from '../../contract/scopes.js';
import type { WebhookEndpointStatus, WebhookEventKind } from '../../schemas/webhook-endpoint.js';

/** A contact as the mock keeps it. */
export interface StoredContact {
  id: number;
  name: string;
  phone: string;
  email?: string;
  tags: string[];
  custom_fields: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** A message, outbound or inbound. */
export interface StoredMessage {
  id: string;
  direction: 'outbound' | 'inbound';
  from: string;
  to: string;
  type: 'text' | 'template';
  content: Record<string, unknown>;
  status: MessageStatus;
  conversation_id: number;
  messaging_account_id: number;
  campaign_id?: number;
  created_at: string;
  delivered_at?: string;
  read_at?: string;
  failed_at?: string;
}

/** A conversation with one phone number. */
export interface StoredConversation {
  id: number;
  phone: string;
  status: ConversationStatus;
  assigned_to: string | null;
  created_at: string;
  updated_at: string;
  message_ids: string[];
}

/** A campaign and how far it got. */
export interface StoredCampaign {
  id: number;
  name: string;
  messaging_account_id: number;
  template_name: string;
  segment_id: number;
  scheduled_at: string;
  status: CampaignStatus;
  sent_count: number;
  created_at: string;
  completed_at?: string;
}

/** A registered webhook endpoint, with its secret. */
export interface StoredWebhookEndpoint {
  id: number;
  url: string;
  events: WebhookEventKind[];
  secret: string;
  status: WebhookEndpointStatus;
  created_at: string;
  disabled_at?: string;
}

/** An API key. */
export interface MockKey {
  key: string;
  scopes: readonly Scope[];
  plan: string;
  revoked: boolean;
}

/** One attempt to deliver one event to one endpoint. */
export interface DeliveryAttempt {
  endpointId: number;
  url: string;
  event: WebhookEventKind;
  /** 0 for the first delivery, 1 to 5 for the retries. */
  attempt: number;
  /** The endpoint's HTTP status, or how the attempt failed without one. */
  status: number | 'network_error' | 'timeout';
  ok: boolean;
  /** Virtual time of the attempt, in ms since the epoch. */
  at: number;
}

/** A notification e-mail the service sent. */
export interface SentEmail {
  to: string;
  subject: string;
  body: string;
  at: number;
}

/** Read access to a mock's state. */
export interface MockState {
  readonly contacts: readonly StoredContact[];
  readonly messages: ReadonlyMap<string, StoredMessage>;
  readonly conversations: readonly StoredConversation[];
  readonly campaigns: readonly StoredCampaign[];
  readonly webhookEndpoints: readonly StoredWebhookEndpoint[];
  readonly keys: ReadonlyMap<string, MockKey>;
  readonly deliveries: readonly DeliveryAttempt[];
  readonly emails: readonly SentEmail[];
}

/** Kinds of resources with their own id sequence. */
type IdKind = 'contact' | 'message' | 'conversation' | 'campaign' | 'webhook';

/** The account the keys belong to. */
export const ACCOUNT = { id: 1, name: 'Acme Test Account', email: 'owner@acme.test' } as const;

/**
 * All state of a mock. Contacts are kept in an array in creation order, so that a page is a
 * slice (its cost does not grow with the number of contacts), plus an index by id.
 */
export class MockStore implements MockState {
  readonly contacts: StoredContact[] = [];
  readonly contactsById = new Map<number, StoredContact>();
  readonly messages = new Map<string, StoredMessage>();
  readonly conversations: StoredConversation[] = [];
  readonly conversationsByPhone = new Map<string, StoredConversation>();
  readonly campaigns: StoredCampaign[] = [];
  readonly webhookEndpoints: StoredWebhookEndpoint[] = [];
  readonly keys = new Map<string, MockKey>();
  readonly deliveries: DeliveryAttempt[] = [];
  readonly emails: SentEmail[] = [];
  readonly automationRuns: Array<{ id: string; automation_id: string | number; at: number }> = [];
  #ids = { contact: 0, message: 0, conversation: 0, campaign: 0, webhook: 0 };

  /** The next id of a kind (1, 2, ...). */
  nextId(kind: IdKind): number {
    this.#ids[kind] += 1;
    return this.#ids[kind];
  }

  /** Adds a contact. */
  addContact(contact: StoredContact): void {
    this.contacts.push(contact);
    this.contactsById.set(contact.id, contact);
  }

  /** Removes a contact. */
  removeContact(contact: StoredContact): void {
    this.contacts.splice(this.contacts.indexOf(contact), 1);
    this.contactsById.delete(contact.id);
  }

  /** Adds a conversation. */
  addConversation(conversation: StoredConversation): void {
    this.conversations.push(conversation);
    this.conversationsByPhone.set(phoneKey(conversation.phone), conversation);
  }

  /** The conversation with a number, whatever its `+`. */
  conversationWith(phone: string): StoredConversation | undefined {
    return this.conversationsByPhone.get(phoneKey(phone));
  }
}

/** A phone number without its optional `+`, to compare numbers written either way. */
export function phoneKey(phone: string): string {
  return phone.startsWith('+') ? phone.slice(1) : phone;
}
