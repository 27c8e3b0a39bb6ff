// A customer a test plays: it writes to the app (an inbound message) and reads what the app sent
// back. `MockService.customer(phone)` is one in process; `connectMock(...).customer(phone)` the same
// over the control API.
import { badArgument, ControlArgumentError } from '../calls/errors.js';
import { checkArguments, SayInput } from '../calls/schemas.js';
import { showValue } from '../../shared/describe.js';
import type { VirtualClock } from '../state/clock.js';
import { answersSettled } from './answers.js';
import type { StoredMessage } from '../state/records.js';
import type { MockStore } from '../state/store.js';
import {
  conversationMessages,
  customerMessageOf,
  transcriptOf,
  type CustomerMessage,
  type Transcript,
} from './transcript.js';

/** How long `say` waits for the app's answer. */
export interface SayOptions {
  /**
   * How long no new message to the customer must come before the answer is taken as complete, in
   * ms of real time, counted once the deliveries of the customer's message were answered: time
   * for an app that answers after acknowledging the webhook. 0 to 10000.
   * @default 200
   */
  settle?: number | undefined;
  /**
   * The longest `say` waits in all, in ms of real time, the deliveries included: then it resolves
   * with what came (an app that keeps writing, or one that hangs). 0 to 60000.
   * @default 5000
   */
  timeout?: number | undefined;
}

/**
 * One customer, by phone number, that a test plays: `say` writes to the app and resolves with its
 * answer, `transcript` and `lastReply` read the conversation. The same methods in process
 * (`mock.customer(phone)`) and over HTTP (`connectMock(url).customer(phone)`).
 *
 * @example
 * ```ts
 * const mock = createMockServer({ variant: 2 }); // its webhooks reach your app's handler
 * const customer = mock.customer('+44 7700 900124');
 * const [reply] = await customer.say('YES'); // { from: 'app', text: 'Your appointment is confirmed', ... }
 * console.log(reply?.text, String(await customer.transcript())); // customer: YES\napp: Your appointment is confirmed
 * ```
 */
export interface MockCustomer {
  /** The customer's number in E.164 (`+447700900124`), however it was written. */
  readonly phone: string;
  /**
   * Writes `text` to the app, as `receiveMessage` does (the app gets `message.received`), and
   * resolves with the messages the app sent to this number in answer, oldest first: once the
   * deliveries of the customer's message were answered (the app's work inside its webhook handler
   * done), then once no new message to this number came for `settle` ms, or after `timeout` ms with
   * what came by then. A bad `text` or option rejects with an `InvalidArgumentError` naming it, and
   * nothing is sent. So does a mock where no enabled webhook endpoint subscribes to
   * `message.received` (the app could not hear the customer): the error says which endpoint to
   * enable or how to register one (over HTTP a 409 CONFLICT).
   */
  say(text: string, options?: SayOptions): Promise<CustomerMessage[]>;
  /** The conversation both ways, oldest first; `String(transcript)` prints one line a message. */
  transcript(): Promise<Transcript>;
  /** The newest message the app sent to this number, or undefined when it sent none. */
  lastReply(): Promise<CustomerMessage | undefined>;
}

/** What a customer in process needs of its mock. */
export interface CustomerHost {
  /** The store as it is now (a reset replaces it). */
  store(): MockStore;
  readonly clock: VirtualClock;
  /** Records an inbound message from `from` (E.164) with its events, as `receiveMessage` does. */
  receive(from: string, body: string): StoredMessage;
  /** Calls `changed` whenever the mock does something; returns the function that stops it. */
  watch(changed: () => void): () => void;
  /** Aborted when the mock's face closes: a `say` under way resolves at once. */
  ended(): AbortSignal;
}

/** How long `say` waits by default, in ms. */
const DEFAULTS = { settle: 200, timeout: 5000 } as const;

/** A customer of a mock in this process; `phone` was read into E.164 already. */
export class InProcessCustomer implements MockCustomer {
  readonly phone: string;
  readonly #host: CustomerHost;

  constructor(host: CustomerHost, phone: string) {
    this.#host = host;
    this.phone = phone;
  }

  async say(text: string, options: SayOptions = {}): Promise<CustomerMessage[]> {
    // Not an object (`say('YES', 500)`): refused naming `options`, rather than read as no options.
    if (typeof options !== 'object' || options === null)
      throw badArgument(
        'options',
        'must be an object',
        `say: options must be an object ({ settle, timeout }), got ${showValue(options)}.`,
      );
    const { text: body, ...bounds } = checkArguments(SayInput, { ...options, text }, 'say');
    const host = this.#host;
    // No endpoint would carry the message to the app: an answer of [] would read as the app's silence.
    const unheard = noListener(host.store());
    if (unheard !== undefined) throw unheard;
    const earlier = new Set(this.#messages().map((message) => message.id));
    const before = host.clock.underWay();
    host.receive(this.phone, body);
    // Taken before any await: the deliveries of this message, and no other work's.
    const deliveries = host.clock.startedSince(before);
    await answersSettled(
      {
        deliveries,
        newest: () => host.store().conversationWith(this.phone)?.message_ids.at(-1),
        watch: (changed) => host.watch(changed),
        ended: host.ended(),
      },
      { settle: bounds.settle ?? DEFAULTS.settle, timeout: bounds.timeout ?? DEFAULTS.timeout },
    );
    return this.#messages()
      .filter((message) => message.direction === 'outbound' && !earlier.has(message.id))
      .map(customerMessageOf);
  }

  transcript(): Promise<Transcript> {
    return Promise.resolve(transcriptOf(this.#messages().map(customerMessageOf)));
  }

  lastReply(): Promise<CustomerMessage | undefined> {
    const newest = this.#messages().findLast((message) => message.direction === 'outbound');
    return Promise.resolve(newest === undefined ? undefined : customerMessageOf(newest));
  }

  #messages(): StoredMessage[] {
    return conversationMessages(this.#host.store(), this.phone);
  }
}

/**
 * The refusal of a `say` no app can hear: no enabled webhook endpoint subscribes to
 * `message.received`. A 409 (the mock's state forbids it) that says how to fix it: enable the
 * disabled endpoint that subscribes to it, or register one. Undefined when one can hear it.
 */
export function noListener(store: MockStore): ControlArgumentError | undefined {
  const subscribed = store.webhookEndpoints.filter((endpoint) => endpoint.events.includes('message.received'));
  if (subscribed.some((endpoint) => endpoint.status === 'active')) return undefined;
  const register = "registerWebhook({ url, events: ['message.received'], secret }) (POST /_bizmsg/webhooks)";
  const ids = subscribed.map((endpoint) => endpoint.id);
  const enable = (id: number) => `enableWebhook(${id}) (POST /_bizmsg/webhooks/${id}/enable)`;
  const fix =
    ids.length === 0
      ? `Register one with ${register}.`
      : ids.length === 1
        ? `Endpoint ${ids[0]} subscribes to it but is disabled: enable it with ${enable(ids[0]!)}, or register one with ${register}.`
        : `Endpoints ${ids.join(', ')} subscribe to it but are disabled: enable one with ${enable(ids[0]!)}, or register one with ${register}.`;
  return new ControlArgumentError(
    `say: no enabled webhook endpoint subscribes to message.received, so the app cannot hear the customer; nothing was sent. ${fix}`,
    409,
  );
}
