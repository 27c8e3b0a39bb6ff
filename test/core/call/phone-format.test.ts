import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  normalizePhone,
  Variant1Client,
  Variant2Client,
  type ClientOptions,
} from '../../../src/index.js';
import { json, scriptedFetch } from '../../helpers/scripted-fetch.js';

const BASE = 'https://api.bizmsg.test/api/v1';
const SPELT = '+49 (0)151 1234-5678';
const WRITTEN = { e164: '+4915112345678', digits: '4915112345678', keep: SPELT } as const;
const contact = { id: 7, name: 'Ada', phone: '+4915112345678' };
const message = { message_id: 'msg_1', status: 'sent' };

/** Both clients on a fetch that answers every request with `payload` in the variant's envelope. */
function clients(options: ClientOptions, payload: unknown) {
  const v1 = scriptedFetch(json(200, { success: true, data: payload }));
  const v2 = scriptedFetch(json(200, { data: payload }));
  return {
    v1: new Variant1Client({ apiKey: 'k', baseUrl: BASE, fetch: v1.fetch, ...options }),
    v2: new Variant2Client({ apiKey: 'k', baseUrl: BASE, fetch: v2.fetch, ...options }),
    requests: () => [...v1.requests, ...v2.requests],
  };
}

/** Every method that sends a number: how it is called with `phone`, and where the number is in its body. */
const SENDERS: Array<{
  name: string;
  payload: unknown;
  call: (c: ReturnType<typeof clients>, phone: string) => PromiseLike<unknown>;
  field: 'to' | 'phone';
}> = [
  {
    name: 'v1 messages.send',
    payload: message,
    field: 'to',
    call: (c, to) => c.v1.messages.send({ to, message: 'Hi' }),
  },
  {
    name: 'v1 messages.sendTemplate',
    payload: message,
    field: 'to',
    call: (c, to) => c.v1.messages.sendTemplate({ to, name: 'welcome', language: 'en', components: [] }),
  },
  {
    name: 'v1 automations.trigger',
    payload: { id: 'run_1', automation_id: 'welcome-flow', status: 'started' },
    field: 'to',
    call: (c, to) => c.v1.automations.trigger({ automation_id: 'welcome-flow', to }),
  },
  {
    name: 'v2 messages.send',
    payload: message,
    field: 'to',
    call: (c, to) => c.v2.messages.send({ to, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } }),
  },
  {
    name: 'v2 messages.sendText',
    payload: message,
    field: 'to',
    call: (c, to) => c.v2.messages.sendText({ to, messaging_account_id: 1, body: 'Hi' }),
  },
  {
    name: 'v2 messages.sendTemplate',
    payload: message,
    field: 'to',
    call: (c, to) =>
      c.v2.messages.sendTemplate({ to, messaging_account_id: 1, name: 'welcome', language: 'en', components: [] }),
  },
  // Contacts are created and updated alike in both variants.
  ...(['v1', 'v2'] as const).flatMap((v) => [
    {
      name: `${v} contacts.create`,
      payload: contact,
      field: 'phone' as const,
      call: (c: ReturnType<typeof clients>, phone: string) => c[v].contacts.create({ phone, name: 'Ada' }),
    },
    {
      name: `${v} contacts.update`,
      payload: contact,
      field: 'phone' as const,
      call: (c: ReturnType<typeof clients>, phone: string) => c[v].contacts.update(7, { phone }),
    },
  ]),
];

describe.each(SENDERS)('$name', ({ payload, call, field }) => {
  it.each(['e164', 'digits', 'keep'] as const)('writes the number in phoneFormat %s', async (phoneFormat) => {
    const c = clients({ phoneFormat }, payload);
    await call(c, SPELT);
    const [request] = c.requests();
    expect(JSON.parse(request!.body)[field]).toBe(WRITTEN[phoneFormat]);
  });

  it('writes E.164 by default', async () => {
    const c = clients({}, payload);
    await call(c, '0049 151 12345678');
    expect(JSON.parse(c.requests()[0]!.body)[field]).toBe('+4915112345678');
  });

  it.each(['e164', 'digits', 'keep'] as const)(
    'refuses an invalid number before anything is sent, in phoneFormat %s',
    async (phoneFormat) => {
      const c = clients({ phoneFormat }, payload);
      const error = await Promise.resolve(call(c, '0151 1234 5678')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toMatch(
        new RegExp(
          `^The body of (POST|PUT) /[a-z/0-9]+, field \`${field}\`: "0151 1234 5678" is not a valid phone number: it starts with 0; write a national number with its country code \\(\\+49 151…\\)\\.$`,
        ),
      );
      expect(c.requests()).toEqual([]);
    },
  );
});

describe('the phoneFormat option', () => {
  it('leaves the caller’s object as it was', async () => {
    const c = clients({}, message);
    const body = { to: '0049 151 12345678', message: 'Hi' };
    await c.v1.messages.send(body);
    expect(body).toEqual({ to: '0049 151 12345678', message: 'Hi' });
  });

  it('sends a body without a number as it is (an update of the name, a trigger by contact id)', async () => {
    const c = clients({}, contact);
    await c.v2.contacts.update(7, { name: 'Ada L' });
    await c.v1.automations.trigger({ automation_id: 'welcome-flow', contact_id: 7 });
    expect(c.requests().map((r) => JSON.parse(r.body))).toEqual([
      { automation_id: 'welcome-flow', contact_id: 7 },
      { name: 'Ada L' },
    ]);
  });

  it('refuses a number that is not a string, and an explicit undefined is left out as JSON leaves it', async () => {
    const c = clients({}, contact);
    const error = await c.v2.contacts.create({ phone: 4915112345678 as never, name: 'Ada' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toBe(
      'The body of POST /contacts, field `phone`: a phone number must be a string, got 4915112345678.',
    );
    await c.v2.contacts.update(7, { phone: undefined, name: 'Ada' });
    expect(c.requests().map((r) => r.body)).toEqual(['{"name":"Ada"}']);
  });

  it.each([['E164'], ['international'], [null], [1]])('refuses phoneFormat %j at construction', (phoneFormat) => {
    expect(() => new Variant2Client({ apiKey: 'k', baseUrl: BASE, phoneFormat: phoneFormat as never })).toThrow(
      new InvalidArgumentError(
        `The \`phoneFormat\` option must be one of e164, digits, keep, got ${typeof phoneFormat === 'string' ? JSON.stringify(phoneFormat) : String(phoneFormat)}.`,
      ),
    );
    expect(() => new Variant1Client({ apiKey: 'k', baseUrl: BASE, phoneFormat: phoneFormat as never })).toThrow(
      InvalidArgumentError,
    );
  });

  it('sends exactly normalizePhone of any string that is a number, and nothing for any other (property)', async () => {
    const spelling = fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom(...'0123456789+-. ()/'), maxLength: 24 }));
    await fc.assert(
      fc.asyncProperty(
        spelling,
        fc.constantFrom<'e164' | 'digits' | 'keep'>('e164', 'digits', 'keep'),
        async (to, phoneFormat) => {
          const c = clients({ phoneFormat }, message);
          let expected: string | undefined;
          try {
            expected = phoneFormat === 'keep' ? (normalizePhone(to), to) : normalizePhone(to, { format: phoneFormat });
          } catch {
            expected = undefined;
          }
          const outcome = await c.v2.messages
            .sendText({ to, messaging_account_id: 1, body: 'x' })
            .catch((e: unknown) => e);
          if (expected === undefined) {
            expect(outcome).toBeInstanceOf(InvalidArgumentError);
            expect(c.requests()).toEqual([]);
          } else {
            expect(JSON.parse(c.requests()[0]!.body).to).toBe(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
