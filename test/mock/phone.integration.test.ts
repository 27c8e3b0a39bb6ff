import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockServer, startMockHttpServer, type MockHttpServer, type MockService } from '../../src/mock/index.js';
import { errorEnvelope, rawApi, useMocks } from '../helpers/mock-api.js';

const mock = createMockServer({ variant: 2, plans: { enterprise: { rateLimit: 1_000_000 } } });
const api = rawApi(mock);
useMocks(mock);

const validPhone = fc
  .tuple(
    fc.boolean(),
    fc.constantFrom(...'123456789'),
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 7, maxLength: 14 }),
  )
  .map(([plus, first, rest]) => `${plus ? '+' : ''}${first}${rest}`);

it('accepts every number of 8 to 15 digits not starting with 0, with an optional + (property)', async () => {
  await fc.assert(
    fc.asyncProperty(validPhone, async (phone) => {
      mock.reset();
      const response = await api('POST', '/contacts', { body: { name: 'A', phone } });
      expect(response.status).toBe(201);
      expect(response.body.data.phone).toBe(phone);
    }),
    { numRuns: 100 },
  );
});

it('answers INVALID_PHONE to every other string, a national number starting with 0 too, and never a 5xx (property)', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.string(),
        fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 8, maxLength: 15 }).map((d) => `0${d}`),
      ),
      async (phone) => {
        fc.pre(!/^\+?[1-9]\d{7,14}$/.test(phone));
        const response = await api('POST', '/contacts', { body: { name: 'A', phone } });
        expect([response.status, response.body]).toEqual([
          400,
          errorEnvelope(2, {
            code: 'INVALID_PHONE',
            message:
              'phone must be an international number: 8 to 15 digits, not starting with 0, with or without a leading +.',
            details: { phone: ['is not a valid phone number'] },
          }),
        ]);
      },
    ),
    { numRuns: 200 },
  );
});

/** The two faces of the mock, each with its own reset and raw API. */
const faces: Array<[string, () => { api: ReturnType<typeof rawApi>; mock: () => MockService }]> = [
  ['in process (msw)', () => ({ api, mock: () => mock })],
  [
    'over real HTTP',
    () => {
      let server: MockHttpServer;
      beforeAll(async () => {
        server = await startMockHttpServer({ variant: 2 });
      });
      afterAll(() => server.close());
      beforeEach(() => server.mock.reset());
      return {
        api: (method, path, call) =>
          rawApi({ baseUrl: server.baseUrl, apiKey: server.apiKey, variant: 2 })(method, path, call),
        mock: () => server.mock,
      };
    },
  ],
];

describe.each(faces)('one number in every spelling, %s', (_face, setUp) => {
  const face = setUp();
  const taken = (id: number) =>
    errorEnvelope(2, {
      code: 'VALIDATION_ERROR',
      message: 'Invalid request parameters: phone.',
      details: { phone: [`is already the number of contact ${id}`] },
    });

  it('keeps one contact per number: a second spelling is a VALIDATION_ERROR on phone, and changes nothing', async () => {
    const first = await face.api('POST', '/contacts', { body: { name: 'Ada', phone: '+4915112345678' } });
    expect(first.status).toBe(201);
    for (const phone of ['4915112345678', '+4915112345678']) {
      const again = await face.api('POST', '/contacts', { body: { name: 'Eve', phone } });
      expect([again.status, again.body]).toEqual([422, taken(1)]);
    }
    expect(face.mock().store.contacts.map((c) => [c.name, c.phone])).toEqual([['Ada', '+4915112345678']]);
  });

  it('refuses an update to another contact’s number, allows one to its own number in another spelling', async () => {
    await face.api('POST', '/contacts', { body: { name: 'Ada', phone: '+4915112345678' } });
    await face.api('POST', '/contacts', { body: { name: 'Bob', phone: '4915199999999' } });
    const stolen = await face.api('PUT', '/contacts/2', { body: { phone: '4915112345678', name: 'Robert' } });
    expect([stolen.status, stolen.body]).toEqual([422, taken(1)]);
    expect(face.mock().store.contacts.find((c) => c.id === 2)).toMatchObject({ name: 'Bob', phone: '4915199999999' });
    const respelt = await face.api('PUT', '/contacts/1', { body: { phone: '4915112345678' } });
    expect([respelt.status, respelt.body.data.phone]).toEqual([200, '4915112345678']);
    // The number Ada left is free again, the one she moved to is still hers.
    const moved = await face.api('PUT', '/contacts/1', { body: { phone: '+4915100000001' } });
    expect(moved.status).toBe(200);
    expect((await face.api('POST', '/contacts', { body: { name: 'Cy', phone: '4915112345678' } })).status).toBe(201);
    expect((await face.api('POST', '/contacts', { body: { name: 'Di', phone: '4915100000001' } })).body).toEqual(
      taken(1),
    );
  });

  it('frees a deleted contact’s number', async () => {
    await face.api('POST', '/contacts', { body: { name: 'Ada', phone: '+4915112345678' } });
    await face.api('DELETE', '/contacts/1');
    const again = await face.api('POST', '/contacts', { body: { name: 'Ada', phone: '4915112345678' } });
    expect([again.status, again.body.data.id]).toEqual([201, 2]);
  });

  it('search finds a number whichever spelling is stored or asked, and parts of it as before', async () => {
    await face.api('POST', '/contacts', { body: { name: 'Ada', phone: '4915112345678' } });
    await face.api('POST', '/contacts', { body: { name: 'Bob', phone: '+4915187654321' } });
    await face.api('POST', '/contacts', { body: { name: 'Cy 0151', phone: '+14155550100', email: 'cy@x.test' } });
    const found = async (search: string) =>
      (await face.api('GET', `/contacts?search=${encodeURIComponent(search)}`)).body.data.map(
        (c: { name: string }) => c.name,
      );
    for (const spelling of ['+4915112345678', '4915112345678', '0049 151 1234 5678', '+49 (0)151 1234-5678'])
      expect(await found(spelling)).toEqual(['Ada']);
    for (const spelling of ['+4915187654321', '4915187654321', '+49 151 8765 4321', '0049/151/87654321'])
      expect(await found(spelling)).toEqual(['Bob']);
    expect(await found('+49151')).toEqual(['Ada', 'Bob']);
    expect(await found('0151')).toEqual(['Cy 0151']);
    expect(await found('cy@')).toEqual(['Cy 0151']);
    expect(await found('+4915112345679')).toEqual([]);
  });

  it('keeps one conversation per number', async () => {
    for (const to of ['+4915112345678', '4915112345678']) {
      const sent = await face.api('POST', '/messages/send', {
        body: { to, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } },
      });
      expect(sent.status).toBe(200);
    }
    face.mock().receiveMessage({ from: '4915112345678', body: 'Hello back' });
    expect(face.mock().store.conversations).toHaveLength(1);
    const conversation = (await face.api('GET', '/conversations')).body.data;
    expect(conversation).toEqual([expect.objectContaining({ phone: '+4915112345678' })]);
  });
});

it('refuses seed contacts with one number twice, in any spelling', () => {
  expect(() =>
    createMockServer({
      seed: {
        contacts: [
          { name: 'Ada', phone: '+4915112345678' },
          { name: 'Eve', phone: '4915112345678' },
        ],
      },
    }),
  ).toThrow('seed: contacts.1.phone is already the number of contacts.0.');
});
