// A customer a test plays over HTTP (`connectMock(url).customer(phone)`, `/_bizmsg/customers/{phone}/…`):
// the mock on a real port, the clinic's app a real node:http server that receives the webhooks and
// answers through a Variant2Client pointed at the mock. The same results as in process
// (test/mock/customer.test.ts), read over the wire.
import { execFile, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BizMsgError, InvalidArgumentError, Variant2Client } from '../../../src/index.js';
import {
  connectMock,
  startMockHttpServer,
  type CustomerMessage,
  type MockControl,
  type MockHttpServer,
} from '../../../src/mock/index.js';
import { webhookMiddleware, type WebhookMiddleware } from '../../../src/webhooks/index.js';
import { WEBHOOK_RETRY_DELAYS_MS } from '../../../src/contract/webhooks.js';

const TOKEN = 'customer-control-token-0123456789';
const SECRET = 'whsec_clinic';
/** The patient, in E.164; the tests write it in other spellings. */
const PATIENT = '+447700900124';

const REPLIES: Record<string, string> = {
  YES: 'Your appointment is confirmed',
  NO: 'Your appointment is cancelled.\nReply with a day that suits you.',
  STOP: 'You will get no more reminders',
};

/** The clinic's app: a node:http server receiving the mock's webhooks, answering through the API. */
class ClinicApp {
  readonly server: Server;
  /** What the app does with a patient's message, in its webhook handler; each test may set it. */
  answer: (patient: string, text: string) => unknown = (patient, text) => this.reply(patient, text);
  /** The messages the app got, as `[patient, text]`. */
  readonly got: Array<[string, string]> = [];
  #receive: WebhookMiddleware = this.#receiver();
  #client: Variant2Client | undefined;

  constructor() {
    this.server = createServer((req, res) => void this.#receive(req, res));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Points the app at `mock` and forgets what it did: a new receiver (and its de-duplication) too. */
  use(mock: MockHttpServer): void {
    this.#client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
    this.#receive = this.#receiver();
    this.answer = (patient, text) => this.reply(patient, text);
    this.got.length = 0;
  }

  /** The clinic's answers: YES, NO and STOP get one, anything else none. */
  async reply(patient: string, text: string): Promise<void> {
    const reply = REPLIES[text.trim().toUpperCase()];
    if (reply !== undefined) await this.send(patient, reply);
  }

  send(to: string, body: string) {
    return this.#client!.messages.sendText({ to, messaging_account_id: 1, body });
  }

  remind(to: string) {
    return this.#client!.messages.sendTemplate({
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

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  #receiver(): WebhookMiddleware {
    return webhookMiddleware({
      secret: SECRET,
      on: {
        'message.received': (event) => {
          const [patient, text] = [`+${event.data.from ?? ''}`, event.data.body ?? ''];
          this.got.push([patient, text]);
          return this.answer(patient, text);
        },
      },
    });
  }
}

const clinic = new ClinicApp();
let appOrigin: string;
let mock: MockHttpServer;
let control: MockControl;

beforeAll(async () => {
  appOrigin = await clinic.start();
  mock = await startMockHttpServer({ variant: 2, controlToken: TOKEN });
  control = connectMock(mock.origin, { controlToken: TOKEN });
});
afterAll(async () => {
  await mock.close();
  await clinic.close();
});

/** The mock back to its seed, its clock frozen (statuses and times exact), the clinic's endpoint registered. */
async function freshMock(server: MockHttpServer, steer: MockControl): Promise<void> {
  await steer.reset();
  await steer.clock.stop();
  await steer.registerWebhook({ url: `${appOrigin}/webhooks`, events: ['message.received'], secret: SECRET });
  clinic.use(server);
}

beforeEach(() => freshMock(mock, control));

/** A message the app sent, or the patient's, as the customer API gives it (the clock stands: `at` is now). */
const fromApp = (id: string, text: string): CustomerMessage => ({
  from: 'app',
  text,
  id,
  status: 'sent',
  at: mock.mock.clock.now(),
});
const fromPatient = (id: string, text: string): CustomerMessage => ({
  from: 'customer',
  text,
  id,
  status: 'received',
  at: mock.mock.clock.now(),
});

/** A raw call to the control API, with the token. */
async function raw(method: string, path: string, body?: string) {
  const response = await fetch(`${mock.origin}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), body: JSON.parse(text) as unknown };
}

/** Everything a refused call could have changed. */
const fingerprint = () => JSON.stringify([mock.mock.state(), mock.mock.deliveries]);

describe('connectMock(url).customer(phone)', () => {
  it('says, and reads the transcript and the last reply, exactly as in process', async () => {
    await clinic.remind(PATIENT);
    const patient = control.customer('+44 7700 900124');
    expect(patient.phone).toBe(PATIENT);

    expect(await patient.say('NO')).toEqual([fromApp('msg_3', REPLIES.NO!)]);

    const transcript = await patient.transcript();
    expect(transcript).toEqual([
      fromApp('msg_1', '[template appointment_reminder: Ada, Tuesday 10:00]'),
      fromPatient('msg_2', 'NO'),
      fromApp('msg_3', REPLIES.NO!),
    ]);
    // Revived from JSON: it prints as the in-process one does.
    expect(String(transcript)).toBe(
      [
        'app: [template appointment_reminder: Ada, Tuesday 10:00]',
        'customer: NO',
        'app: Your appointment is cancelled.\\nReply with a day that suits you.',
      ].join('\n'),
    );
    const inProcess = await mock.mock.customer(PATIENT).transcript();
    expect([transcript, String(transcript)]).toEqual([inProcess, String(inProcess)]);
    expect(await patient.lastReply()).toEqual(fromApp('msg_3', REPLIES.NO!));
    expect(clinic.got).toEqual([[PATIENT, 'NO']]);
  });

  it('catches an app that answers after acknowledging, with the default settle', async () => {
    clinic.answer = (patient, text) => {
      setTimeout(() => void clinic.reply(patient, text), 50); // the app's own delay, after its 200
    };
    const patient = control.customer('tel:+447700900124');

    expect(await patient.say('YES')).toEqual([fromApp('msg_2', REPLIES.YES!)]);
    expect(String(await patient.transcript())).toBe('customer: YES\napp: Your appointment is confirmed');
    expect(mock.mock.deliveries.map((attempt) => attempt.status)).toEqual([200]);
  });

  it('answers [] after settle when the app stays silent, and lastReply is then undefined', async () => {
    const patient = control.customer('0044 7700 900124');
    expect(await patient.say('Can I bring my dog?', { settle: 50 })).toEqual([]);
    expect(await patient.lastReply()).toBe(undefined);
    expect(clinic.got).toEqual([[PATIENT, 'Can I bring my dog?']]);
  });

  it('refuses a number that is none at once, and text or options as in process: nothing sent', async () => {
    const before = fingerprint();
    expect(() => control.customer('call me')).toThrow(InvalidArgumentError);
    expect(() => control.customer('call me')).toThrow(/^customer: "call me" is not a valid phone number/);
    const patient = control.customer(PATIENT);
    for (const [text, options, message] of [
      ['', undefined, 'text must not be empty.'],
      ['YES', { settle: -1 }, 'settle must be a whole number of ms from 0 to 10000.'],
      ['YES', { timeout: 60_001 }, 'timeout must be a whole number of ms from 0 to 60000.'],
    ] as const) {
      const error = await patient.say(text, options).catch((caught: unknown) => caught);
      expect(InvalidArgumentError.is(error), message).toBe(true);
      expect((error as Error).message).toMatch(new RegExp(`: ${message.replace(/[.()]/g, '\\$&')}$`));
    }
    expect(fingerprint()).toBe(before);
    expect(clinic.got).toEqual([]);
  });
});

describe('the routes, raw', () => {
  it('POST /_bizmsg/customers/{phone}/say takes the number URL-encoded in any spelling and answers a JSON array', async () => {
    const said = await raw('POST', '/_bizmsg/customers/%2B44%207700%20900124/say', JSON.stringify({ text: 'YES' }));
    expect(said).toEqual({ status: 200, type: 'application/json', body: [fromApp('msg_2', REPLIES.YES!)] });

    const conversation = [fromPatient('msg_1', 'YES'), fromApp('msg_2', REPLIES.YES!)];
    for (const phone of ['%2B447700900124', '0044%207700%20900124', 'tel%3A%2B447700900124', '447700900124'])
      expect(await raw('GET', `/_bizmsg/customers/${phone}/transcript`)).toEqual({
        status: 200,
        type: 'application/json',
        body: conversation,
      });
  });

  it('a junk number in the path: 400 JSON naming phone, and nothing received', async () => {
    const before = fingerprint();
    const refusal = {
      status: 400,
      type: 'application/json',
      body: {
        error: {
          code: 'INVALID_ARGUMENT',
          message:
            'customer: "call-me" is not a valid phone number: "c" is not a digit, space, dash, dot, slash or bracket. Write it in international form: +44 7700 900124, 0044 7700 900124 or tel:+447700900124.',
          details: { phone: ['is not an international phone number'] },
        },
      },
    };
    expect(await raw('POST', '/_bizmsg/customers/call-me/say', JSON.stringify({ text: 'YES' }))).toEqual(refusal);
    expect(await raw('GET', '/_bizmsg/customers/call-me/transcript')).toEqual(refusal);
    expect(fingerprint()).toBe(before);
    expect(clinic.got).toEqual([]);
  });

  it('a bad body: 400 JSON naming the field, and nothing received', async () => {
    const before = fingerprint();
    const bodies: Array<[string | undefined, Record<string, string[]>]> = [
      [JSON.stringify({ text: '' }), { text: ['must not be empty'] }],
      [JSON.stringify({}), { text: ['is required'] }],
      [undefined, { text: ['is required'] }],
      [JSON.stringify({ text: 'YES', settle: -1 }), { settle: ['must be a whole number of ms from 0 to 10000'] }],
      [JSON.stringify({ text: 'YES', timeout: 'soon' }), { timeout: ['must be a number'] }],
      [JSON.stringify({ text: 'YES', wait: 1 }), { wait: ['is not a known field'] }],
      ['500', { body: ['must be an object'] }],
      ['{"text": "YES"', { body: ['is not valid JSON'] }],
    ];
    for (const [body, details] of bodies)
      expect(await raw('POST', '/_bizmsg/customers/%2B447700900124/say', body), body).toEqual({
        status: 400,
        type: 'application/json',
        body: { error: { code: 'INVALID_ARGUMENT', message: expect.any(String), details } },
      });
    expect(fingerprint()).toBe(before);
    expect(clinic.got).toEqual([]);
  });
});

describe('say with no app to hear it', () => {
  const UNHEARD =
    'say: no enabled webhook endpoint subscribes to message.received, so the app cannot hear the customer; nothing was sent.';
  const REGISTER = "registerWebhook({ url, events: ['message.received'], secret }) (POST /_bizmsg/webhooks)";

  it('no endpoint subscribes: 409 CONFLICT JSON saying how to register one, an InvalidArgumentError through connectMock, nothing received', async () => {
    await control.removeWebhook(1);
    const message = `${UNHEARD} Register one with ${REGISTER}.`;
    const before = fingerprint();

    expect(await raw('POST', '/_bizmsg/customers/%2B447700900124/say', JSON.stringify({ text: 'YES' }))).toEqual({
      status: 409,
      type: 'application/json',
      body: { error: { code: 'CONFLICT', message, details: {} } },
    });
    const error = await control
      .customer(PATIENT)
      .say('YES', { settle: 10_000, timeout: 60_000 })
      .catch((caught: unknown) => caught);
    expect(InvalidArgumentError.is(error)).toBe(true);
    expect((error as Error).message).toBe(message);

    expect(fingerprint()).toBe(before);
    expect(clinic.got).toEqual([]);
  });

  it('the endpoint was disabled (the app was down): the error names it; enabled through connectMock, the app hears', async () => {
    // The app is down: its receiver answers 500 (and logs why) to every delivery, through the whole retry schedule.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    clinic.answer = () => {
      throw new Error('the app is down');
    };
    await control.emit('message.received');
    for (const delay of WEBHOOK_RETRY_DELAYS_MS) await control.clock.advance(delay);
    expect((await control.state()).webhooks.map(({ id, status }) => [id, status])).toEqual([[1, 'disabled']]);
    expect(logged).toHaveBeenCalledTimes(WEBHOOK_RETRY_DELAYS_MS.length + 1);
    clinic.use(mock);
    const before = fingerprint();

    const error = await control
      .customer(PATIENT)
      .say('YES')
      .catch((caught: unknown) => caught);
    expect(InvalidArgumentError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      `${UNHEARD} Endpoint 1 subscribes to it but is disabled: enable it with enableWebhook(1) (POST /_bizmsg/webhooks/1/enable), or register one with ${REGISTER}.`,
    );
    expect(fingerprint()).toBe(before);

    await control.enableWebhook(1);
    expect(await control.customer(PATIENT).say('YES')).toEqual([fromApp('msg_2', REPLIES.YES!)]);
    expect(clinic.got).toEqual([[PATIENT, 'YES']]);
  });
});

const python3 = spawnSync('python3', ['--version']).status === 0;

describe('from another language', () => {
  // Asynchronous: the mock answers from this very process, which a synchronous spawn would block.
  it.skipIf(!python3)('is played from Python 3 with the standard library alone', async () => {
    const script = [
      'import json, sys, urllib.parse, urllib.request',
      'origin, token = sys.argv[1], sys.argv[2]',
      'def call(method, path, body=None):',
      '    data = None if body is None else json.dumps(body).encode()',
      "    headers = {'Authorization': 'Bearer ' + token, 'Content-Type': 'application/json'}",
      '    request = urllib.request.Request(origin + path, data=data, headers=headers, method=method)',
      '    with urllib.request.urlopen(request, timeout=20) as response:',
      '        return json.load(response)',
      "phone = urllib.parse.quote('+44 7700 900124', safe='')",
      "answer = call('POST', '/_bizmsg/customers/' + phone + '/say', {'text': 'STOP', 'settle': 50})",
      "transcript = call('GET', '/_bizmsg/customers/' + phone + '/transcript')",
      "print(json.dumps({'answer': answer, 'lines': [m['from'] + ': ' + m['text'] for m in transcript]}))",
    ].join('\n');
    const { stdout } = await promisify(execFile)('python3', ['-c', script, mock.origin, TOKEN], { timeout: 20_000 });
    expect(JSON.parse(stdout)).toEqual({
      answer: [fromApp('msg_2', REPLIES.STOP!)],
      lines: ['customer: STOP', 'app: You will get no more reminders'],
    });
  });
});

describe('close() while a say is under way', () => {
  it('finishes at once: the say in process resolves with what came, the one over HTTP loses its connection', async () => {
    // A mock of its own: this test closes it.
    const closing = await startMockHttpServer({ variant: 2, controlToken: TOKEN });
    const steer = connectMock(closing.origin, { controlToken: TOKEN });
    await freshMock(closing, steer);
    // The app holds each delivery: the says wait for its answer, which never comes.
    const held: Array<() => void> = [];
    clinic.answer = () => new Promise<void>((resolve) => held.push(resolve));
    const overHttp = steer
      .customer(PATIENT)
      .say('Hello?', { settle: 10_000, timeout: 60_000 })
      .catch((error: unknown) => error);
    const inProcess = closing.mock.customer(PATIENT).say('Anyone?', { settle: 10_000, timeout: 60_000 });
    await vi.waitFor(() => expect(held).toHaveLength(2), { timeout: 10_000, interval: 5 });

    const started = performance.now();
    await closing.close();
    const took = performance.now() - started;

    // Nothing the close does waits on a timer or on the app: it aborts the deliveries (their
    // sockets end), ends the says' waits through an AbortSignal, and destroys its own
    // connections. Each is a step of the event loop, so a loaded machine stretches it by
    // milliseconds; had it waited for the app or for settle, it would take 10 s.
    expect(took).toBeLessThan(1000);
    expect(await inProcess).toEqual([]);
    const error = await overHttp;
    expect(error).toBeInstanceOf(BizMsgError);
    expect((error as Error).message).toBe(
      `Could not reach the mock's control API at ${closing.origin}/_bizmsg/customers/%2B447700900124/say: is bizmsg-mock running there?`,
    );
    await vi.waitFor(
      () =>
        expect(closing.mock.deliveries.map(({ status, error, nextRetryAt }) => [status, error, nextRetryAt])).toEqual([
          ['network_error', 'not answered: the mock was closed while the delivery was under way', null],
          ['network_error', 'not answered: the mock was closed while the delivery was under way', null],
        ]),
      { timeout: 10_000, interval: 5 },
    );
    // The app's handlers end; their answers go nowhere (the deliveries' sockets are gone).
    for (const release of held) release();
  });
});
