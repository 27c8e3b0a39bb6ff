// A customer a test plays (`mock.customer(phone)`): a clinic's app answers a patient's YES, NO or
// STOP to its appointment reminder, inside its webhook handler, after acknowledging it, or never.
// All in process: the mock and the app's webhook receiver are msw handlers of one setupServer, and
// the clock is stopped, so that every message's status and time are exact.
import { setTimeout as delay } from 'node:timers/promises';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Variant2Client } from '../../src/index.js';
import {
  connectMock,
  createMockServer,
  InvalidArgumentError,
  LIFECYCLE_MS,
  type CustomerMessage,
  type MockCustomer,
} from '../../src/mock/index.js';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { WEBHOOK_RETRY_DELAYS_MS } from '../../src/contract/webhooks.js';
import { ControlArgumentError } from '../../src/mock/calls/errors.js';

const RECEIVER = 'https://clinic.test/webhooks/bizmsg';
const SECRET = 'whsec_clinic';
/** The patient, in E.164: what `customer(phone).phone` reads any spelling as. */
const PATIENT = '+447700900124';

const mock = createMockServer({ variant: 2, baseUrl: 'https://customer.bizmsg.test/api/v1' });
const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });

/** What the clinic's app does with a patient's message, in its webhook handler; each test sets it. */
let app: (patient: string, text: string) => unknown;
/** The app's receiver; a new one for each test, so that no delivery reads as a copy of an earlier test's. */
let receive: (request: Request) => Promise<Response>;
const server = setupServer(
  ...mock.handlers,
  http.post(RECEIVER, ({ request }) => receive(request)),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(async () => {
  // A delivery of the test before that is still under way must not reach this test's app.
  await mock.clock.settled();
  mock.reset();
  // Frozen: each message keeps the status it was sent with, and every `at` is the same instant.
  mock.clock.stop();
  mock.registerWebhook({ url: RECEIVER, events: ['message.received'], secret: SECRET });
  app = clinic;
  receive = createWebhookHandler({
    secret: SECRET,
    on: { 'message.received': (event) => app(`+${event.data.from ?? ''}`, event.data.body ?? '') },
  });
});
afterAll(() => {
  server.close();
  mock.pause();
});

const REPLIES: Record<string, string> = {
  YES: 'Your appointment is confirmed',
  NO: 'Your appointment is cancelled.\nReply with a day that suits you.',
  STOP: 'You will get no more reminders',
};

/** The clinic's app: it answers YES, NO and STOP, and nothing else, before acknowledging the webhook. */
async function clinic(patient: string, text: string): Promise<void> {
  const reply = REPLIES[text.trim().toUpperCase()];
  if (reply !== undefined) await send(patient, reply);
}

function send(to: string, body: string) {
  return client.messages.sendText({ to, messaging_account_id: 1, body });
}

/** The reminder the clinic sends first: a template with two parameters. */
function remind(to: string) {
  return client.messages.sendTemplate({
    to,
    messaging_account_id: 1,
    name: 'appointment_reminder',
    language: 'en',
    components: [
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ada' },
          { type: 'text', text: 'Tuesday 10:00' },
        ],
      },
    ],
  });
}

/** A message the app sent, as `say`, `transcript` and `lastReply` give it (the clock is stopped: `at` is now). */
const fromApp = (id: string, text: string, status: CustomerMessage['status'] = 'sent'): CustomerMessage => ({
  from: 'app',
  text,
  id,
  status,
  at: mock.clock.now(),
});
const fromPatient = (id: string, text: string): CustomerMessage => ({
  from: 'customer',
  text,
  id,
  status: 'received',
  at: mock.clock.now(),
});

/** Everything a call could have changed: the state, the journal, the delivery attempts. */
const fingerprint = () => JSON.stringify([mock.state(), mock.requests(), mock.deliveries]);

/** What `promise` rejected with (it must reject). */
async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('it should have been refused'),
    (error: unknown) => error,
  );
}

describe('customer.say', () => {
  it("resolves with exactly the app's answer, sent inside its webhook handler", async () => {
    const patient = mock.customer('+44 7700 900124');
    expect(patient.phone).toBe(PATIENT);

    const answer = await patient.say('YES');

    expect(answer).toEqual([fromApp('msg_2', 'Your appointment is confirmed')]);
    expect(answer[0]!.id).toMatch(/^msg_\d+$/);
    expect(mock.store.messages.get('msg_2')).toMatchObject({ direction: 'outbound', to: PATIENT, type: 'text' });
    // The app answered before it acknowledged: the one delivery got its 200.
    expect(mock.deliveries.map((attempt) => [attempt.event, attempt.status])).toEqual([['message.received', 200]]);
  });

  it('reads an option given as undefined as its default (an app answering after acknowledging is still caught)', async () => {
    app = (patient, text) => void setTimeout(() => void clinic(patient, text), 50);
    const answer = await mock.customer(PATIENT).say('YES', { settle: undefined, timeout: undefined });
    expect(answer).toEqual([fromApp('msg_2', 'Your appointment is confirmed')]);
  });

  it('still catches an app that answers after acknowledging the webhook (default settle)', async () => {
    let acknowledged = false;
    app = (patient, text) => {
      // The app's own delay: it answers 50 ms after its handler returned.
      setTimeout(() => void clinic(patient, text), 50);
      acknowledged = true;
    };

    expect(await mock.customer(PATIENT).say('YES')).toEqual([fromApp('msg_2', 'Your appointment is confirmed')]);
    expect([acknowledged, mock.deliveries.map((attempt) => attempt.status)]).toEqual([true, [200]]);
  });

  it('waits for the webhook handler however long it takes, settle 0 or not', async () => {
    app = async (patient, text) => {
      await delay(300); // the app's own slow work before it answers
      await clinic(patient, text);
    };

    expect(await mock.customer(PATIENT).say('NO', { settle: 0 })).toEqual([fromApp('msg_2', REPLIES.NO!)]);
  });

  it('resolves with [] once settle passed, when the app never answers', async () => {
    const patient = mock.customer(PATIENT);
    const started = performance.now();

    expect(await patient.say('Can I bring my dog?', { settle: 50 })).toEqual([]);

    // The quiet period was waited out (a timer may fire a millisecond early; none fires 10 ms early).
    expect(performance.now() - started).toBeGreaterThanOrEqual(40);
    expect(await patient.transcript()).toEqual([fromPatient('msg_1', 'Can I bring my dog?')]);
  });

  it('is bounded by timeout when the app keeps writing', async () => {
    const patient = mock.customer(PATIENT);
    app = () => undefined; // it acknowledges the patient's message, and writes on as before
    let writing = true;
    const writer = (async () => {
      for (let n = 1; writing; n++) {
        await send(PATIENT, `Reminder ${n}`);
        await delay(20);
      }
    })();
    const fromTheApp = async () => (await patient.transcript()).filter((message) => message.from === 'app');
    try {
      await vi.waitFor(async () => expect(await fromTheApp()).not.toEqual([]), { timeout: 10_000, interval: 5 });
      const started = performance.now();
      // A settle longer than the timeout: only the timeout can end this wait.
      const answer = await patient.say('Hello?', { settle: 10_000, timeout: 300 });
      const took = performance.now() - started;
      const transcript = await patient.transcript();

      expect(took).toBeGreaterThanOrEqual(290);
      expect(took).toBeLessThan(10_000);
      // The answer is what the app wrote after the patient, in order, as far as it had come.
      const hello = transcript.findIndex((message) => message.from === 'customer');
      expect(transcript.slice(hello + 1, hello + 1 + answer.length)).toEqual(answer);
      expect(answer.every((message) => message.from === 'app' && /^Reminder \d+$/.test(message.text))).toBe(true);
      // `say` did not wait for the app to stop: it wrote on after the answer.
      await vi.waitFor(async () => expect((await patient.transcript()).length).toBeGreaterThan(transcript.length), {
        timeout: 10_000,
        interval: 5,
      });
    } finally {
      writing = false;
      await writer;
    }
  });
});

describe('customer.transcript and lastReply', () => {
  it('lists the conversation both ways, and prints one line a message (a line break written \\n)', async () => {
    await remind(PATIENT);
    const patient = mock.customer(PATIENT);
    await patient.say('NO', { settle: 0 });

    const transcript = await patient.transcript();

    const entries = [
      fromApp('msg_1', '[template appointment_reminder: Ada, Tuesday 10:00]'),
      fromPatient('msg_2', 'NO'),
      fromApp('msg_3', 'Your appointment is cancelled.\nReply with a day that suits you.'),
    ];
    expect(transcript).toEqual(entries);
    expect(String(transcript)).toBe(
      [
        'app: [template appointment_reminder: Ada, Tuesday 10:00]',
        'customer: NO',
        'app: Your appointment is cancelled.\\nReply with a day that suits you.',
      ].join('\n'),
    );
    // An array as any other: it copies as its entries, without its toString.
    expect(JSON.parse(JSON.stringify(transcript))).toEqual(entries);
    expect(String(await mock.customer('+15550000009').transcript())).toBe('');
  });

  it('lastReply is the newest message the app sent to that number', async () => {
    const patient = mock.customer(PATIENT);
    expect(await patient.lastReply()).toBe(undefined);

    await client.messages.sendTemplate({
      to: PATIENT,
      messaging_account_id: 1,
      name: 'welcome',
      language: 'en',
      components: [],
    });
    expect(await patient.lastReply()).toEqual(fromApp('msg_1', '[template welcome]'));

    await patient.say('STOP', { settle: 0 });
    expect(await patient.lastReply()).toEqual(fromApp('msg_3', 'You will get no more reminders'));

    await patient.say('Thanks', { settle: 0 }); // no answer: the last reply stays
    const stop = fromApp('msg_3', 'You will get no more reminders', 'delivered');
    await mock.clock.advance(LIFECYCLE_MS.delivered);
    expect(await patient.lastReply()).toEqual(stop);
  });

  it('reads the same through connectMock(mock): the transcript prints, lastReply agrees', async () => {
    const patient = connectMock(mock).customer('0044 7700 900124');
    expect(patient.phone).toBe(PATIENT);

    expect(await patient.say('YES', { settle: 0 })).toEqual([fromApp('msg_2', 'Your appointment is confirmed')]);
    expect(String(await patient.transcript())).toBe('customer: YES\napp: Your appointment is confirmed');
    expect(await patient.lastReply()).toEqual(fromApp('msg_2', 'Your appointment is confirmed'));
  });
});

describe('the number, in any spelling', () => {
  it('reaches one conversation whichever spelling each customer was given', async () => {
    const spellings = ['+44 7700 900124', '0044 7700 900124', 'tel:+447700900124'];
    const customers: MockCustomer[] = spellings.map((spelling) => mock.customer(spelling));
    expect(customers.map((customer) => customer.phone)).toEqual([PATIENT, PATIENT, PATIENT]);

    await customers[0]!.say('YES', { settle: 0 });
    await customers[1]!.say('NO', { settle: 0 });
    await customers[2]!.say('STOP', { settle: 0 });

    const printed = [
      'customer: YES',
      'app: Your appointment is confirmed',
      'customer: NO',
      'app: Your appointment is cancelled.\\nReply with a day that suits you.',
      'customer: STOP',
      'app: You will get no more reminders',
    ].join('\n');
    for (const customer of customers) expect(String(await customer.transcript())).toBe(printed);
    expect(mock.store.conversations.map((conversation) => [conversation.phone, conversation.message_ids])).toEqual([
      [PATIENT, ['msg_1', 'msg_2', 'msg_3', 'msg_4', 'msg_5', 'msg_6']],
    ]);
  });

  it('refuses a number that is none with an InvalidArgumentError naming it, and sends nothing', () => {
    const before = fingerprint();
    for (const customer of [
      (phone: string) => mock.customer(phone),
      (phone: string) => connectMock(mock).customer(phone),
    ])
      expect(() => customer('07700 900124')).toThrow(
        new InvalidArgumentError(
          'customer: "07700 900124" is not a valid phone number: it starts with 0; write a national number with its country code (+49 151…). Write it in international form: +44 7700 900124, 0044 7700 900124 or tel:+447700900124.',
        ),
      );
    const error = (() => {
      try {
        mock.customer('call me');
      } catch (caught) {
        return caught;
      }
    })();
    expect(InvalidArgumentError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/^customer: "call me" is not a valid phone number/);
    expect(fingerprint()).toBe(before);
  });
});

describe('what say refuses', () => {
  it('bad text or options: an InvalidArgumentError naming them, and nothing sent', async () => {
    const patient = mock.customer(PATIENT);
    const before = fingerprint();
    const cases: Array<[unknown, unknown, string]> = [
      ['', undefined, 'say: text must not be empty.'],
      [42, undefined, 'say: text must be a string.'],
      ['YES', { settle: -1 }, 'say: settle must be a whole number of ms from 0 to 10000.'],
      ['YES', { settle: 1.5 }, 'say: settle must be an integer.'],
      ['YES', { timeout: 60_001 }, 'say: timeout must be a whole number of ms from 0 to 60000.'],
      ['YES', { wait: 100 }, 'say: wait is not a known field.'],
      ['YES', 500, 'say: options must be an object ({ settle, timeout }), got 500.'],
      ['YES', null, 'say: options must be an object ({ settle, timeout }), got null.'],
    ];
    for (const [text, options, message] of cases) {
      const error = await refusal(patient.say(text as string, options as never));
      expect(InvalidArgumentError.is(error), message).toBe(true);
      expect((error as Error).message).toBe(message);
    }
    expect(fingerprint()).toBe(before);
    expect(mock.deliveries).toEqual([]);
  });
});

describe('receiveMessage and the store', () => {
  it('receiveMessage takes a number in any spelling and stores it in E.164', async () => {
    const stored = mock.receiveMessage({ from: '+44 7700 900124', body: 'YES' });
    expect(stored).toMatchObject({ id: 'msg_1', direction: 'inbound', from: PATIENT, status: 'received' });
    await mock.clock.settled(); // the delivery was answered: the app answered inside its webhook handler
    expect(mock.receiveMessage({ from: '0044 7700 900124', body: 'Thanks' }).from).toBe(PATIENT);
    await mock.clock.settled();

    expect(String(await mock.customer(PATIENT).transcript())).toBe(
      'customer: YES\napp: Your appointment is confirmed\ncustomer: Thanks',
    );
    expect(mock.store.conversations.map((conversation) => conversation.phone)).toEqual([PATIENT]);
    expect(() => mock.receiveMessage({ from: 'nobody', body: 'Hi' })).toThrow(InvalidArgumentError);
  });

  it('store.contacts reads like store.messages: get, has, size', async () => {
    const contact = await client.contacts.create({ name: 'Ada', phone: PATIENT });
    const sent = await send(PATIENT, 'See you on Tuesday');
    const { contacts, messages } = mock.store;
    // The mock's contact ids are numbers (the API's type says a string or a number).
    const id = Number(contact.id);

    expect([contacts.get(id)?.name, contacts.has(id), contacts.size]).toEqual(['Ada', true, 1]);
    expect([messages.get(sent.id)?.content, messages.has(sent.id), messages.size]).toEqual([
      { body: 'See you on Tuesday' },
      true,
      1,
    ]);
    expect([contacts.get(999), contacts.has(999)]).toEqual([undefined, false]);
    // Still an array: map, length, index, spread; a page of it is a plain array.
    expect([contacts.length, contacts[0]?.name, contacts.map((c) => c.phone), [...contacts.values()]]).toEqual([
      1,
      'Ada',
      [PATIENT],
      [contacts.get(id)],
    ]);
    expect(Object.getPrototypeOf(contacts.filter(() => true))).toBe(Array.prototype);

    await client.contacts.delete(id);
    expect([contacts.get(id), contacts.has(id), contacts.size]).toEqual([undefined, false, 0]);
  });
});

describe('close() while a say waits', () => {
  it('resolves the say with what came, at once, when the app acknowledged and stays silent', async () => {
    app = () => undefined;
    const saying = mock.customer(PATIENT).say('Hello?', { settle: 10_000, timeout: 60_000 });
    // The delivery was answered: the say now waits for a quiet period it would take 10 s to see.
    await vi.waitFor(() => expect(mock.deliveries).toHaveLength(1), { timeout: 10_000, interval: 5 });

    const closing = performance.now();
    mock.close();
    expect(await saying).toEqual([]);
    // The wait ends on the close itself, not on a timer: a loaded machine adds microtasks, not seconds.
    expect(performance.now() - closing).toBeLessThan(1000);
    mock.resume();
  });

  it('ends a delivery the app has not answered, records it as such, and does not retry it', async () => {
    let release: (() => void) | undefined;
    app = () => new Promise<void>((resolve) => (release = resolve));
    const saying = mock.customer(PATIENT).say('Hello?', { settle: 10_000, timeout: 60_000 });
    // The app's handler got the delivery, and holds it: the say waits for its answer.
    await vi.waitFor(() => expect(release).toBeTypeOf('function'), { timeout: 10_000, interval: 5 });

    const closing = performance.now();
    mock.close();
    expect(await saying).toEqual([]);
    expect(performance.now() - closing).toBeLessThan(1000);
    await vi.waitFor(
      () =>
        expect(mock.deliveries.map(({ status, error, nextRetryAt }) => ({ status, error, nextRetryAt }))).toEqual([
          {
            status: 'network_error',
            error: 'not answered: the mock was closed while the delivery was under way',
            nextRetryAt: null,
          },
        ]),
      { timeout: 10_000, interval: 5 },
    );
    release!();
    mock.resume();
  });
});

describe('say with no app to hear it', () => {
  /** The start of every such refusal; the fix follows. */
  const UNHEARD =
    'say: no enabled webhook endpoint subscribes to message.received, so the app cannot hear the customer; nothing was sent.';
  const REGISTER = "registerWebhook({ url, events: ['message.received'], secret }) (POST /_bizmsg/webhooks)";

  /** Checks that `say` rejects with `message` as a 409, in process and through connectMock(mock), and sends nothing. */
  async function expectUnheard(message: string): Promise<void> {
    const before = fingerprint();
    for (const patient of [mock.customer(PATIENT), connectMock(mock).customer(PATIENT)]) {
      // A settle and timeout longer than the test: only a refusal at once ends it in time.
      const error = await refusal(patient.say('YES', { settle: 10_000, timeout: 60_000 }));
      expect(InvalidArgumentError.is(error)).toBe(true);
      expect((error as Error).message).toBe(message);
      expect(ControlArgumentError.refused(error)?.status).toBe(409);
    }
    // Nothing was sent: no inbound message stored, no conversation opened, no delivery, no request.
    expect(fingerprint()).toBe(before);
  }

  it('refuses at once when no endpoint subscribes to message.received, saying how to register one', async () => {
    mock.removeWebhook(1);
    await expectUnheard(`${UNHEARD} Register one with ${REGISTER}.`);
    // An endpoint for other events cannot hear the customer either.
    mock.registerWebhook({ url: RECEIVER, events: ['message.sent', 'message.delivered'], secret: SECRET });
    await expectUnheard(`${UNHEARD} Register one with ${REGISTER}.`);
    expect(await mock.customer(PATIENT).transcript()).toEqual([]);
  });

  it('refuses at once when the endpoints that subscribe are disabled, naming the one to enable; enabled, the app hears', async () => {
    mock.registerWebhook({ url: RECEIVER, events: ['message.received'], secret: SECRET });
    // The app's receiver is down: every delivery fails, through the whole retry schedule.
    receive = () => Promise.resolve(new Response(null, { status: 503 }));
    await mock.emit('message.received');
    for (const retryDelay of WEBHOOK_RETRY_DELAYS_MS) await mock.clock.advance(retryDelay);
    expect(mock.store.webhookEndpoints.map(({ id, status }) => [id, status])).toEqual([
      [1, 'disabled'],
      [2, 'disabled'],
    ]);

    await expectUnheard(
      `${UNHEARD} Endpoints 1, 2 subscribe to it but are disabled: enable one with enableWebhook(1) (POST /_bizmsg/webhooks/1/enable), or register one with ${REGISTER}.`,
    );
    mock.removeWebhook(2);
    await expectUnheard(
      `${UNHEARD} Endpoint 1 subscribes to it but is disabled: enable it with enableWebhook(1) (POST /_bizmsg/webhooks/1/enable), or register one with ${REGISTER}.`,
    );

    // Back up and enabled: the customer is heard, and answered, as before.
    receive = createWebhookHandler({
      secret: SECRET,
      on: { 'message.received': (event) => app(`+${event.data.from ?? ''}`, event.data.body ?? '') },
    });
    mock.enableWebhook(1);
    const answer = await mock.customer(PATIENT).say('YES', { settle: 0 });
    expect(answer.map(({ from, text }) => [from, text])).toEqual([['app', 'Your appointment is confirmed']]);
  });
});
