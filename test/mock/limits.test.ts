import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BODY_LIMITS, createMockServer, MAGIC_NUMBERS, type MockServer } from '../../src/mock/index.js';
import { errorEnvelope, rawApi, useMocks } from '../helpers/mock-api.js';

const v1 = createMockServer({ variant: 1, baseUrl: 'https://limits-v1.bizmsg.test/api/v1' });
const v2 = createMockServer({ variant: 2, baseUrl: 'https://limits-v2.bizmsg.test/api/v1' });
useMocks(v1, v2);

const MAX_BYTES = 1_048_576;
const MAX_DEPTH = 32;
const createPath = { 1: '/contacts/create', 2: '/contacts' } as const;

/** JSON text of `levels` objects nested in each other around `1`. */
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
/** A contact creation body whose `custom_fields` nest `levels` objects (the body itself is one more level). */
const deepContact = (levels: number) => `{"name":"Ada","phone":"4915112345678","custom_fields":${nested(levels)}}`;
/** A template message whose `components` nest `levels` arrays (or are `components`). */
const deepTemplate = (variant: 1 | 2, levels: number, components = `${'['.repeat(levels)}${']'.repeat(levels)}`) => {
  return variant === 1
    ? `{"to":"4915112345678","name":"welcome","language":"en","components":${components}}`
    : `{"to":"4915112345678","messaging_account_id":1,"type":"template","content":{"name":"welcome","language":"en","components":${components}}}`;
};
/** A contact creation body of exactly `bytes` bytes. */
const contactOfSize = (bytes: number) => {
  const frame = JSON.stringify({ name: '', phone: '4915112345678' });
  return JSON.stringify({ name: 'x'.repeat(bytes - frame.length), phone: '4915112345678' });
};

/** Everything a client can observe of a mock's state, and the id the next contact would get. */
function snapshot(mock: MockServer) {
  const { contacts, messages, conversations, campaigns, webhookEndpoints, deliveries, emails } = mock.store;
  return JSON.stringify({
    contacts,
    messages: [...messages.values()],
    conversations,
    campaigns,
    webhookEndpoints,
    deliveries,
    emails,
  });
}

it('limits bodies to 1 MiB and 32 levels of nesting', () => {
  expect(BODY_LIMITS).toEqual({ maxBytes: MAX_BYTES, maxDepth: MAX_DEPTH });
});

describe.each([
  [1, v1, 400],
  [2, v2, 422],
] as Array<[1 | 2, MockServer, number]>)('Variant %i', (variant, mock, validationStatus) => {
  const api = rawApi(mock);

  it(`answers a contact nested 5,000 levels deep with ${validationStatus} naming the field, and stores nothing`, async () => {
    const response = await api('POST', createPath[variant], { rawBody: deepContact(5000) });
    expect([response.status, response.body]).toEqual([
      validationStatus,
      errorEnvelope(variant, {
        code: 'VALIDATION_ERROR',
        message: 'Invalid request parameters: custom_fields.',
        details: { custom_fields: ['is nested deeper than 32 levels'] },
      }),
    ]);
    expect(mock.store.contacts).toEqual([]);
    const list = await api('GET', '/contacts');
    expect([list.status, list.body.meta.total]).toEqual([200, 0]);
  });

  it('answers template components nested 5,000 levels deep with a VALIDATION_ERROR; messages and conversations still answer', async () => {
    const path = variant === 1 ? '/messages/template' : '/messages/send';
    const response = await api('POST', path, { rawBody: deepTemplate(variant, 5000) });
    const field = variant === 1 ? 'components' : 'content';
    expect([response.status, response.body.error.details]).toEqual([
      validationStatus,
      { [field]: ['is nested deeper than 32 levels'] },
    ]);
    expect(mock.store.messages.size).toBe(0);
    const body = '[{"type":"body","parameters":[{"type":"text","text":"Ada"}]}]';
    const sent = await api('POST', path, { rawBody: deepTemplate(variant, 0, body) });
    expect(sent.status).toBe(200);
    const read = variant === 1 ? await api('GET', '/messages/msg_1/status') : await api('GET', '/conversations/1');
    expect(read.status).toBe(200);
  });

  it('takes nesting up to the limit and refuses one level more', async () => {
    // The body is level 1, so custom_fields may hold 31 more.
    expect((await api('POST', createPath[variant], { rawBody: deepContact(MAX_DEPTH - 1) })).status).toBeLessThan(300);
    const deeper = await api('POST', createPath[variant], { rawBody: deepContact(MAX_DEPTH) });
    expect([deeper.status, deeper.body.error.details]).toEqual([
      validationStatus,
      { custom_fields: ['is nested deeper than 32 levels'] },
    ]);
    const arrays = await api('POST', createPath[variant], { rawBody: '['.repeat(100_000) });
    expect([arrays.status, arrays.body.error.details]).toEqual([
      validationStatus,
      { body: ['is nested deeper than 32 levels'] },
    ]);
    expect(mock.store.contacts).toHaveLength(1);
  });

  it('takes a body of exactly 1 MiB and answers one byte more with 413 PAYLOAD_TOO_LARGE', async () => {
    expect((await api('POST', createPath[variant], { rawBody: contactOfSize(MAX_BYTES) })).status).toBeLessThan(300);
    const over = await api('POST', createPath[variant], { rawBody: contactOfSize(MAX_BYTES + 1) });
    expect([over.status, over.body]).toEqual([
      413,
      errorEnvelope(variant, {
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The request body is larger than 1048576 bytes.',
        details: { body: ['must be at most 1048576 bytes'] },
      }),
    ]);
    expect(mock.store.contacts).toHaveLength(1);
  });

  it('answers a 10 MB name with 413 and stores nothing', async () => {
    const response = await api('POST', createPath[variant], {
      body: { name: 'x'.repeat(10_000_000), phone: '4915112345678' },
    });
    expect([response.status, response.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(mock.store.contacts).toEqual([]);
  });

  it('answers a body that is not UTF-8 with a VALIDATION_ERROR', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"name":"Ad'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('","phone":"4915112345678"}'),
    ]);
    const auth: Record<string, string> =
      variant === 1 ? { 'x-api-key': mock.apiKey } : { authorization: `Bearer ${mock.apiKey}` };
    const response = await fetch(`${mock.baseUrl}${createPath[variant]}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: bytes,
    });
    expect([response.status, await response.json()]).toEqual([
      validationStatus,
      errorEnvelope(variant, { code: 'VALIDATION_ERROR', details: { body: ['is not valid UTF-8'] } }),
    ]);
    expect(mock.store.contacts).toEqual([]);
  });

  it('changes nothing for any rejected request, whatever came before', async () => {
    const send = '/messages/send';
    const text = (to: string) =>
      variant === 1 ? { to, message: 'Hi' } : { to, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } };
    const rejected = fc.constantFrom(
      { method: 'POST', path: createPath[variant], rawBody: deepContact(5000) },
      { method: 'POST', path: createPath[variant], rawBody: contactOfSize(MAX_BYTES + 1) },
      { method: 'POST', path: createPath[variant], rawBody: '{"name":"Ada",' },
      { method: 'POST', path: createPath[variant], body: { name: 'Ada', phone: '12' } },
      { method: 'POST', path: createPath[variant], body: { name: 'Ada', phone: '4915112345678', email: 'nope' } },
      { method: 'PUT', path: '/contacts/1', rawBody: deepContact(40) },
      { method: 'PUT', path: '/contacts/1', body: { phone: 'nope' } },
      { method: 'PUT', path: '/contacts/999', body: { name: 'B' } },
      { method: 'POST', path: send, body: text(MAGIC_NUMBERS.messagingError) },
      { method: 'POST', path: send, body: text('12') },
      {
        method: 'POST',
        path: variant === 1 ? '/messages/template' : '/messages/send',
        rawBody: deepTemplate(variant, 40),
      },
      ...(variant === 1
        ? [{ method: 'POST', path: '/automations/trigger', body: { automation_id: 'nope' } }]
        : [
            { method: 'DELETE', path: '/contacts/999' },
            {
              method: 'POST',
              path: '/campaigns',
              body: {
                name: 'C',
                messaging_account_id: 1,
                template_name: 'nope',
                segment_id: 1,
                scheduled_at: '2030-01-01T00:00:00Z',
              },
            },
            { method: 'POST', path: '/webhooks', body: { url: 'https://example.com/h', events: [], secret: 's' } },
          ]),
    );
    const accepted = fc.constantFrom(
      {
        method: 'POST',
        path: createPath[variant],
        body: { name: 'Ada', phone: '4915112345678', custom_fields: { tier: 'gold' } },
      },
      { method: 'PUT', path: '/contacts/1', body: { name: 'Ada L' } },
      { method: 'POST', path: send, body: text('4915112345678') },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(accepted, { maxLength: 3 }),
        fc.array(rejected, { minLength: 1, maxLength: 4 }),
        async (before, junk) => {
          mock.reset();
          for (const { method, path, ...call } of before) await api(method, path, call);
          const state = snapshot(mock);
          for (const { method, path, ...call } of junk) {
            const response = await api(method, path, call);
            expect(response.status).toBeGreaterThanOrEqual(400);
          }
          expect(snapshot(mock)).toBe(state);
        },
      ),
      { numRuns: 40 },
    );
  });
});
