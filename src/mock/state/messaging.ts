// Messages and conversations over time: sent -> delivered -> read (or failed), a fate decided by a
// test (setStatus), inbound messages, and their events.
import { ControlArgumentError } from '../calls/errors.js';
import type { VirtualClock } from './clock.js';
import { conversationEventData, DEFAULT_FAILURE, messageEventData } from './event-data.js';
import type { WebhookDispatcher } from './dispatcher.js';
import { MockHttpError } from '../wire/http-error.js';
import { BUSINESS_NUMBER, LIFECYCLE_MS, MAGIC_NUMBERS } from '../options.js';
import type { StoredFailure, StoredConversation, StoredMessage } from './records.js';
import { phoneKey, type MockStore } from './store.js';

/** The statuses of an outbound message in the order they come: a status never moves back. */
const ORDER = ['sent', 'delivered', 'read', 'failed'] as const;

/** A step a sent message takes: its status, the time it stamps, the event it emits. */
const STEPS = {
  delivered: { stamp: 'delivered_at', event: 'message.delivered' },
  read: { stamp: 'read_at', event: 'message.read' },
  failed: { stamp: 'failed_at', event: 'message.failed' },
} as const;
/** A status a sent message moves on to: a step of its lifecycle, or the fate `setMessageStatus` decides. */
export type MessageFate = keyof typeof STEPS;

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
    store.addMessage(message, conversation);
    conversation.updated_at = message.created_at;
    return message;
  }

  /**
   * Decides an outbound message's fate now: it moves on to `status` (through `delivered` on its way
   * to `read`), each step with its event (`message.failed` carries `error`), and its own lifecycle
   * stops there. A move back, or to where it is, is refused (409 naming `status`) and changes nothing.
   */
  setStatus(message: StoredMessage, status: MessageFate, error: StoredFailure = DEFAULT_FAILURE): StoredMessage {
    const from = message.status;
    if (message.direction === 'inbound')
      throw new ControlArgumentError(
        `Message ${message.id} is inbound (received): only an outbound message has a delivery status.`,
        409,
        { id: ['names an inbound message'] },
      );
    if (ORDER.indexOf(status) <= ORDER.indexOf(from as (typeof ORDER)[number]))
      throw new ControlArgumentError(
        `Message ${message.id} is already ${from}: a status never moves back or stays (${ORDER.join(' < ')}).`,
        409,
        { status: [`must come after ${from} (${ORDER.join(' < ')})`] },
      );
    this.#clock.cancel(lifecycleOf(message));
    // One moment: a message read at once was delivered at that moment too.
    const at = this.#clock.date().toISOString();
    if (status === 'read' && from === 'sent') this.#advance(message, 'delivered', at);
    this.#advance(message, status, at, error);
    return message;
  }

  #scheduleLifecycle(message: StoredMessage, fate: Fate): void {
    // From the stamp the message carries, not a second reading of a clock that moves with real
    // time: each step comes exactly LIFECYCLE_MS after created_at.
    const sentAt = Date.parse(message.created_at);
    if (fate === 'neverDelivered') return;
    const steps: MessageFate[] = fate === 'fails' ? ['failed'] : ['delivered', 'read'];
    // Held weakly: a message the store forgot (a flood past its bound) must not stay in memory
    // until its steps fall due, which a stopped clock may never let them do.
    const held = new WeakRef(message);
    for (const step of steps)
      this.#clock.schedule(
        sentAt + LIFECYCLE_MS[step],
        () => {
          const kept = held.deref();
          if (kept !== undefined) this.#advance(kept, step, this.#clock.date().toISOString());
        },
        `${message.id} ${step}`,
        lifecycleOf(message),
      );
  }

  /** The message moves on to `step` at `at`, with its event; a failure carries `error`. */
  #advance(message: StoredMessage, step: MessageFate, at: string, error: StoredFailure = DEFAULT_FAILURE): void {
    if (this.#store().messages.get(message.id) !== message) return; // the store was reset, or forgot it
    message.status = step;
    message[STEPS[step].stamp] = at;
    if (step === 'failed') message.error = error;
    this.#events.emit(STEPS[step].event, messageEventData(message), at);
  }
}

/** The clock's name for the lifecycle steps of one message, so that a decided fate can drop them. */
function lifecycleOf(message: StoredMessage): string {
  return `message ${message.id}`;
}

type Fate = keyof typeof MAGIC_NUMBERS | 'normal';

function fateOf(to: string): Fate {
  const digits = phoneKey(to);
  const entry = Object.entries(MAGIC_NUMBERS).find(([, number]) => phoneKey(number) === digits);
  return entry === undefined ? 'normal' : (entry[0] as Fate);
}
