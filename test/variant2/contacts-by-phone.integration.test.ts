import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, ValidationError, Variant2Client } from '../../src/index.js';
import { createMockServer, startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { useMocks } from '../helpers/mock-api.js';
import { json, scriptedFetch } from '../helpers/scripted-fetch.js';

const mock = createMockServer({ variant: 2 });
useMocks(mock);
const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });

/** The same number, spelt as users write it. */
const SPELLINGS = [
  '+4915112345678',
  '4915112345678',
  '+49 151 1234 5678',
  '0049 151 1234 5678',
  '+49 (0)151 1234-5678',
  '49.151.1234.5678',
];

describe('contacts.findByPhone', () => {
  it('finds the contact in any spelling, stored in any spelling the service takes', async () => {
    const ada = await client.contacts.create({ name: 'Ada', phone: '4915112345678' }, undefined);
    const bare = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl, phoneFormat: 'digits' });
    const bob = await bare.contacts.create({ name: 'Bob', phone: '+44 7700 900123' });
    expect([ada.phone, bob.phone]).toEqual(['+4915112345678', '447700900123']);
    for (const spelling of SPELLINGS) expect(await client.contacts.findByPhone(spelling)).toEqual(ada);
    for (const spelling of ['+447700900123', '0044 7700 900 123', '447700900123'])
      expect(await bare.contacts.findByPhone(spelling)).toEqual(bob);
  });

  it('is not fooled by contacts whose numbers contain the digits, over several pages of them', async () => {
    // 25 contacts the search matches by part: more than one page of 20.
    for (let i = 0; i < 25; i++)
      await client.contacts.create({
        name: `near ${i}`,
        phone: `${String(i).padStart(2, '0')}4915112345678`.replace(/^0/, '9'),
      });
    await client.contacts.create({ name: 'longer', phone: '49151123456789' });
    expect((await client.contacts.list({ search: '4915112345678' })).meta?.total).toBe(26);
    expect(await client.contacts.findByPhone('+4915112345678')).toBeUndefined();
    const ada = await client.contacts.create({ name: 'Ada', phone: '+4915112345678' });
    expect(await client.contacts.findByPhone('0049 151 1234 5678')).toEqual(ada);
  });

  it('refuses an invalid number before anything is sent', async () => {
    const { fetch, requests } = scriptedFetch(json(200, { data: [] }));
    const offline = new Variant2Client({ apiKey: 'sk_test_scripted', baseUrl: mock.baseUrl, fetch });
    const error = await offline.contacts.findByPhone('0151 1234 5678').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(
      /^contacts\.findByPhone: "0151 1234 5678" is not a valid phone number: it starts with 0/,
    );
    expect(requests).toEqual([]);
  });

  it('searches by the digits and takes the options of every request', async () => {
    const { fetch, requests } = scriptedFetch(json(200, { data: [] }));
    const recorded = new Variant2Client({ apiKey: 'sk_test_scripted', baseUrl: mock.baseUrl, fetch });
    await recorded.contacts.findByPhone('+49 151 1234 5678', { headers: { 'x-trace': 't1' } });
    expect(requests.map((r) => [r.url, r.headers.get('x-trace')])).toEqual([
      [`${mock.baseUrl}/contacts?search=4915112345678`, 't1'],
    ]);
  });
});

describe('contacts.upsert', () => {
  it('creates the contact, then updates it whatever the spelling, never making a second one', async () => {
    const created = await client.contacts.upsert({ phone: '0049 151 1234 5678', name: 'Ada', tags: ['new'] });
    expect(created).toEqual({
      created: true,
      contact: expect.objectContaining({ id: 1, name: 'Ada', phone: '+4915112345678', tags: ['new'] }),
    });
    const updated = await client.contacts.upsert({ phone: '49 151 1234 5678', name: 'Ada L', email: 'ada@x.test' });
    expect(updated).toEqual({
      created: false,
      contact: expect.objectContaining({
        id: 1,
        name: 'Ada L',
        phone: '+4915112345678',
        email: 'ada@x.test',
        tags: ['new'],
      }),
    });
    expect(mock.store.contacts).toHaveLength(1);
  });

  it('refuses an invalid number or parameters before anything is sent', async () => {
    const { fetch, requests } = scriptedFetch(json(200, { data: [] }));
    const offline = new Variant2Client({ apiKey: 'sk_test_scripted', baseUrl: mock.baseUrl, fetch });
    await expect(offline.contacts.upsert({ phone: 'call me', name: 'Ada' })).rejects.toThrow(
      new InvalidArgumentError(
        'contacts.upsert, field `phone`: "call me" is not a valid phone number: "c" is not a digit, space, dash, dot, slash or bracket.',
      ),
    );
    await expect(offline.contacts.upsert(undefined as never)).rejects.toThrow(
      new InvalidArgumentError('The parameters of contacts.upsert must be an object, got undefined.'),
    );
    const cyclic: Record<string, unknown> = { phone: '+4915112345678', name: 'Ada' };
    cyclic.self = cyclic;
    await expect(offline.contacts.upsert(cyclic as never)).rejects.toThrow(
      /^The parameters of contacts\.upsert cannot be sent as JSON at "self": Converting circular structure/,
    );
    const throwing = Object.defineProperty({ name: 'Ada' }, 'phone', {
      enumerable: true,
      get: () => {
        throw new Error('no phone');
      },
    });
    await expect(offline.contacts.upsert(throwing as never)).rejects.toThrow(
      new InvalidArgumentError('The parameters of contacts.upsert cannot be sent as JSON: no phone'),
    );
    expect(requests).toEqual([]);
  });

  it('many racing upserts of one number in different spellings end with exactly one contact', async () => {
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        client.contacts.upsert({ phone: SPELLINGS[i % SPELLINGS.length]!, name: `writer ${i}` }),
      ),
    );
    expect(mock.store.contacts).toHaveLength(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.contact.id))).toEqual(new Set([mock.store.contacts[0]!.id]));
  });

  it('racing upserts of many numbers end with one contact per number (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom(...SPELLINGS.keys())), {
          minLength: 1,
          maxLength: 12,
        }),
        async (writes) => {
          mock.reset();
          // Number n is SPELLINGS[k] with its last digit replaced by n.
          const phoneOf = (n: number, k: number) => `${SPELLINGS[k]!.slice(0, -1)}${n}`;
          const results = await Promise.all(
            writes.map(([n, k]) => client.contacts.upsert({ phone: phoneOf(n, k), name: `n${n}` })),
          );
          const numbers = new Set(writes.map(([n]) => n));
          expect(mock.store.contacts).toHaveLength(numbers.size);
          expect(results.filter((r) => r.created)).toHaveLength(numbers.size);
          expect(mock.store.contacts.map((c) => c.phone.at(-1)).sort()).toEqual([...numbers].map(String).sort());
        },
      ),
      { numRuns: 25 },
    );
  });

  it('creates the contact when the one it found is deleted before its update', async () => {
    await client.contacts.create({ name: 'Ada', phone: '+4915112345678' });
    const deleting = new Variant2Client({
      apiKey: mock.apiKey,
      baseUrl: mock.baseUrl,
      // Another writer deletes the contact between the search and the update.
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (request.method === 'PUT') await client.contacts.delete(1);
        return globalThis.fetch(request);
      },
    });
    const result = await deleting.contacts.upsert({ phone: '4915112345678', name: 'Ada again' });
    expect(result).toEqual({ created: true, contact: expect.objectContaining({ id: 2, name: 'Ada again' }) });
    expect(mock.store.contacts.map((c) => c.id)).toEqual([2]);
  });

  it('throws a refusal on phone that no contact explains, after looking once more', async () => {
    const refusal = { error: { code: 'VALIDATION_ERROR', message: 'Invalid', details: { phone: ['is blocked'] } } };
    const { fetch, requests } = scriptedFetch(json(200, { data: [] }), json(422, refusal), json(200, { data: [] }));
    const scripted = new Variant2Client({ apiKey: 'sk_test_scripted', baseUrl: mock.baseUrl, fetch });
    const error = await scripted.contacts.upsert({ phone: '+4915112345678', name: 'Ada' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toBe(
      'POST /contacts failed with 422 VALIDATION_ERROR: Invalid (phone: is blocked)',
    );
    expect(requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET']);
  });

  it('stops after three rounds when other writers keep moving first', async () => {
    const taken = { error: { code: 'VALIDATION_ERROR', message: 'Invalid', details: { phone: ['is taken'] } } };
    const found = { data: [{ id: 1, name: 'Ada', phone: '+4915112345678' }] };
    const gone = { error: { code: 'RESOURCE_NOT_FOUND', message: 'Contact not found.' } };
    // The search finds it, the update finds it gone, the create finds the number taken, and again.
    const { fetch, requests } = scriptedFetch(
      json(200, found),
      json(404, gone),
      json(422, taken),
      json(200, found),
      json(404, gone),
    );
    const scripted = new Variant2Client({ apiKey: 'sk_test_scripted', baseUrl: mock.baseUrl, fetch, maxRetries: 0 });
    const error = await scripted.contacts.upsert({ phone: '+4915112345678', name: 'Ada' }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('ResourceNotFoundError');
    expect(requests.map((r) => r.method)).toEqual(['GET', 'PUT', 'POST', 'GET', 'PUT']);
  });
});

describe('over real HTTP, clients in parallel', () => {
  let server: MockHttpServer;
  beforeAll(async () => {
    server = await startMockHttpServer({ variant: 2 });
  });
  afterAll(() => server.close());
  beforeEach(() => server.mock.reset());

  it('racing upserts from several clients of one number end with one contact, found in any spelling', async () => {
    const writers = ['e164', 'digits', 'keep'].map(
      (phoneFormat) =>
        new Variant2Client({ apiKey: server.apiKey, baseUrl: server.baseUrl, phoneFormat: phoneFormat as 'e164' }),
    );
    const spellings = ['+49 151 1234 5678', '0049 151 12345678', '4915112345678', '+4915112345678'];
    // 'keep' sends a spelling as given, so it gets the two the service takes.
    const spellingFor = (i: number) => (i % 3 === 2 ? spellings[2 + (i % 2)]! : spellings[i % 4]!);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => writers[i % 3]!.contacts.upsert({ phone: spellingFor(i), name: `w${i}` })),
    );
    expect(server.mock.store.contacts).toHaveLength(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    for (const spelling of SPELLINGS)
      expect((await writers[0]!.contacts.findByPhone(spelling))?.id).toBe(server.mock.store.contacts[0]!.id);
  });
});
