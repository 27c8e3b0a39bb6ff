// Messages and conversations over time: sent -> delivered -> read (or failed), inbound messages, and their events.
import type { VirtualClock } from './clock.js';
import { conversationEventData, messageEventData } from './event-data.js';
import type { WebhookDispatcher } from './dispatcher.js';
import { MockHttpError } from '../rules/http-error.js';
import { BUSINESS_NUMBER, LIFECYCLE_MS, MAGIC_NUMBERS } from '../options.js';
import type { StoredConversation, StoredMessage } from './records.js';
import { phoneKey, type MockStore } from './store.js';

/** An outbound message to create. */
export interface OutboundMessage {
  to: string;
  type: StoredMessage['type'];
  content: Record<string, unknown>;
  messaging_account_id: number;
  campaign_id?: number;
}

/**
 * Messages and conversations: sending (sent -> delivered -> read, or failed, on the clock),
 * receiving, and the events each step emits.
 */
export class Messaging {
  readonly #store: () => MockStore;
  readonly #clock: VirtualClock;
  readonly #events: WebhookDispatcher;

  constructor(store: () => MockStore, clock: VirtualClock, events: WebhookDispatcher) {
    this.#store = store;
    this.#clock = clock;
    this.#events = events;
  }

  /** Creates an outbound message and starts its lifecycle; magic numbers choose its fate. */
  send(outbound: OutboundMessage): StoredMessage {
    const fate = fateOf(outbound.to);
    if (fate === 'messagingError') {
      throw new MockHttpError('MESSAGING_ERROR', 'The messaging channel rejected the message.');
    }
    const conversation = this.#conversationWith(outbound.to);
    const message = this.#add(conversation, {
      direction: 'outbound',
      from: BUSINESS_NUMBER,
      to: outbound.to,
      type: outbound.type,
      content: outbound.content,
      status: 'sent',
      messaging_account_id: outbound.messaging_account_id,
      ...(outbound.campaign_id === undefined ? {} : { campaign_id: outbound.campaign_id }),
    });
    this.#events.emit('message.sent', messageEventData(message));
    this.#scheduleLifecycle(message, fate);
    return message;
  }

  /** Records an inbound message from `from`, as if the contact had written. */
  receive(from: string, body: string): StoredMessage {
    const conversation = this.#conversationWith(from);
    const message = this.#add(conversation, {
      direction: 'inbound',
      from,
      to: BUSINESS_NUMBER,
      type: 'text',
      content: { body },
      status: 'received',
      messaging_account_id: 1,
    });
    this.#events.emit('message.received', messageEventData(message));
    return message;
  }

  /** Changes a conversation's status or assignee; closing it emits `conversation.closed`. */
  updateConversation(
    conversation: StoredConversation,
    change: { status?: StoredConversation['status']; assigned_to?: string | null },
  ): StoredConversation {
    const closing = change.status === 'closed' && conversation.status !== 'closed';
    Object.assign(conversation, change, { updated_at: this.#clock.date().toISOString() });
    if (closing) this.#events.emit('conversation.closed', conversationEventData(conversation));
    return conversation;
  }

  #conversationWith(phone: string): StoredConversation {
    const store = this.#store();
    const existing = store.conversationWith(phone);
    if (existing !== undefined) {
      if (existing.status === 'closed') existing.status = 'open';
      return existing;
    }
    const now = this.#clock.date().toISOString();
    const conversation: StoredConversation = {
      id: store.nextId('conversation'),
      phone,
      status: 'open',
      assigned_to: null,
      created_at: now,
      updated_at: now,
      message_ids: [],
    };
    store.addConversation(conversation);
    this.#events.emit('conversation.created', conversationEventData(conversation));
    return conversation;
  }

  #add(
    conversation: StoredConversation,
    fields: Omit<StoredMessage, 'id' | 'conversation_id' | 'created_at'>,
  ): StoredMessage {
    const store = this.#store();
    const message: StoredMessage = {
      id: `msg_${store.nextId('message')}`,
      conversation_id: conversation.id,
      created_at: this.#clock.date().toISOString(),
      ...fields,
    };
    store.messages.set(message.id, message);
    conversation.message_ids.push(message.id);
    conversation.updated_at = message.created_at;
    return message;
  }

  #scheduleLifecycle(message: StoredMessage, fate: Fate): void {
    const sentAt = this.#clock.now();
    if (fate === 'neverDelivered') return;
    if (fate === 'fails') {
      this.#clock.schedule(
        sentAt + LIFECYCLE_MS.failed,
        () => this.#advance(message, 'failed', 'failed_at', 'message.failed'),
        `${message.id} failed`,
      );
      return;
    }
    this.#clock.schedule(
      sentAt + LIFECYCLE_MS.delivered,
      () => this.#advance(message, 'delivered', 'delivered_at', 'message.delivered'),
      `${message.id} delivered`,
    );
    this.#clock.schedule(
      sentAt + LIFECYCLE_MS.read,
      () => this.#advance(message, 'read', 'read_at', 'message.read'),
      `${message.id} read`,
    );
  }

  #advance(
    message: StoredMessage,
    status: 'delivered' | 'read' | 'failed',
    stamp: 'delivered_at' | 'read_at' | 'failed_at',
    event: 'message.delivered' | 'message.read' | 'message.failed',
  ): void {
    if (this.#store().messages.get(message.id) !== message) return; // the store was reset
    const at = this.#clock.date().toISOString();
    message.status = status;
    message[stamp] = at;
    this.#events.emit(event, messageEventData(message), at);
  }
}

type Fate = keyof typeof MAGIC_NUMBERS | 'normal';

function fateOf(to: string): Fate {
  const digits = phoneKey(to);
  const entry = Object.entries(MAGIC_NUMBERS).find(([, number]) => phoneKey(number) === digits);
  return entry === undefined ? 'normal' : (entry[0] as Fate);
}
