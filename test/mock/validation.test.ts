import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMockServer, MAGIC_NUMBERS, type MockServer } from '../../src/mock/index.js';
import { errorEnvelope, rawApi, useMocks } from '../helpers/mock-api.js';
import { specStatusOf } from '../helpers/spec-codes.js';

const v1 = createMockServer({
  variant: 1,
  baseUrl: 'https://v1.bizmsg.test/api/v1',
  plans: { pro: { maxContacts: 3 } },
  templates: ['welcome'],
});
const v2 = createMockServer({
  variant: 2,
  baseUrl: 'https://v2.bizmsg.test/api/v1',
  plans: { enterprise: { maxContacts: 3, maxWebhookEndpoints: 1, maxMessages: 2 } },
  templates: ['welcome'],
});
// Two instances side by side in one process.
useMocks(v1, v2);

const createPath = { 1: '/contacts/create', 2: '/contacts' } as const;

describe.each([
  [1, v1, 400],
  [2, v2, 422],
] as Array<[1 | 2, MockServer, number]>)('Variant %i', (variant, mock, validationStatus) => {
  const api = rawApi(mock);

  it(`answers a missing field with ${validationStatus} VALIDATION_ERROR, field -> messages`, async () => {
    const response = await api('POST', createPath[variant], { body: { name: 'Ada' } });
    expect(response.status).toBe(validationStatus);
    expect(response.body).toEqual(
      errorEnvelope(variant, {
        code: 'VALIDATION_ERROR',
        message: 'Invalid request parameters: phone.',
        details: { phone: ['is required'] },
      }),
    );
  });

  it('lists every bad field with a message that says what is wrong', async () => {
    const response = await api('POST', createPath[variant], {
      body: { name: '', phone: 49151, email: 'not-an-email', tags: 'vip' },
    });
    expect(response.body).toEqual(
      errorEnvelope(variant, {
        code: 'VALIDATION_ERROR',
        message: 'Invalid request parameters: name, phone, email, tags.',
        details: {
          name: ['must not be empty'],
          phone: ['must be a string'],
          email: ['must be a valid email'],
          tags: ['must be an array'],
        },
      }),
    );
  });

  it(`answers malformed JSON with ${validationStatus} VALIDATION_ERROR, never 500`, async () => {
    const response = await api('POST', createPath[variant], { rawBody: '{"name": "Ada",' });
    expect([response.status, response.body]).toEqual([
      validationStatus,
      errorEnvelope(variant, { code: 'VALIDATION_ERROR', details: { body: ['is not valid JSON'] } }),
    ]);
  });

  it.each(['12345', '+12 345 678', '0049-151-1234', '+1234567890123456', 'phone'])(
    'answers the phone %j with 400 INVALID_PHONE',
    async (phone) => {
      const response = await api('POST', createPath[variant], { body: { name: 'Ada', phone } });
      expect([response.status, response.body]).toEqual([
        400,
        errorEnvelope(variant, { code: 'INVALID_PHONE', details: { phone: ['is not a valid phone number'] } }),
      ]);
    },
  );

  it.each(['12345678', '+123456789012345', '4915112345678'])('accepts the phone %j', async (phone) => {
    expect((await api('POST', createPath[variant], { body: { name: 'Ada', phone } })).status).toBe(
      variant === 2 ? 201 : 200,
    );
  });

  it('answers an unknown template with 400 TEMPLATE_NOT_FOUND', async () => {
    const response =
      variant === 1
        ? await api('POST', '/messages/template', {
            body: { to: '4915112345678', name: 'nope', language: 'en', components: [] },
          })
        : await api('POST', '/messages/send', {
            body: {
              to: '4915112345678',
              messaging_account_id: 1,
              type: 'template',
              content: { name: 'nope', language: 'en', components: [] },
            },
          });
    expect([response.status, response.body]).toEqual([
      400,
      errorEnvelope(variant, {
        code: 'TEMPLATE_NOT_FOUND',
        message: 'Template "nope" in language "en" does not exist.',
        details: { [variant === 1 ? 'name' : 'content.name']: ['is not a template of this account'] },
      }),
    ]);
  });

  it('answers 403 PLAN_LIMIT_EXCEEDED past the plan contact limit', async () => {
    for (const n of [1, 2, 3])
      expect(
        (await api('POST', createPath[variant], { body: { name: `c${n}`, phone: `4915100000${n}` } })).status,
      ).toBeLessThan(300);
    const response = await api('POST', createPath[variant], { body: { name: 'c4', phone: '49151000004' } });
    expect([response.status, response.body]).toEqual([
      403,
      errorEnvelope(variant, {
        code: 'PLAN_LIMIT_EXCEEDED',
        message: 'The plan allows at most 3 contacts.',
        details: { maxContacts: 3 },
      }),
    ]);
  });

  it('answers 404 RESOURCE_NOT_FOUND for missing ids, odd ids included', async () => {
    for (const id of ['999', 'abc', '%E0%A4%A', '..%2F..']) {
      const response = await api('GET', `/contacts/${id}`);
      expect([id, response.status, response.body.error.code]).toEqual([id, 404, 'RESOURCE_NOT_FOUND']);
    }
  });

  it('answers 502 MESSAGING_ERROR for the magic number, creating no message', async () => {
    const body =
      variant === 1
        ? { to: MAGIC_NUMBERS.messagingError, message: 'x' }
        : { to: MAGIC_NUMBERS.messagingError, messaging_account_id: 1, type: 'text', content: { body: 'x' } };
    const response = await api('POST', '/messages/send', { body });
    expect([response.status, response.body]).toEqual([502, errorEnvelope(variant, { code: 'MESSAGING_ERROR' })]);
    expect(mock.store.messages.size).toBe(0);
  });

  it('validates pagination parameters', async () => {
    for (const query of ['page=0', 'page=x', 'per_page=101', 'per_page=-1', 'page=1.5']) {
      const response = await api('GET', `/contacts?${query}`);
      expect([query, response.status, response.body.error.code]).toEqual([query, validationStatus, 'VALIDATION_ERROR']);
    }
  });

  it('never answers arbitrary JSON bodies or queries with a 5xx', async () => {
    const paths =
      variant === 1
        ? ['/contacts/create', '/messages/send', '/messages/template', '/automations/trigger', '/contacts/1']
        : ['/contacts', '/messages/send', '/campaigns', '/webhooks', '/contacts/1'];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.oneof(fc.json(), fc.string()),
        fc.dictionary(fc.constantFrom('page', 'per_page', 'search', 'tag', 'status', 'assigned_to', 'x'), fc.string()),
        async (path, rawBody, query) => {
          const method = path === '/contacts/1' ? 'PUT' : 'POST';
          const qs = new URLSearchParams(query).toString();
          const write = await api(method, path, { rawBody });
          const read = await api('GET', `${variant === 1 ? '/contacts' : '/conversations'}?${qs}`);
          for (const response of [write, read]) {
            expect(response.status).toBeLessThan(500);
            if (response.status < 400) continue;
            expect(response.body).toEqual(
              errorEnvelope(variant, { code: expect.any(String) as never, details: expect.anything() }),
            );
            // Status and code agree with the spec's table for this variant.
            expect([response.body.error.code, response.status]).toEqual([
              response.body.error.code,
              specStatusOf(variant, response.body.error.code),
            ]);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('Variant 2 specifics', () => {
  const api = rawApi(v2);

  it('checks messaging accounts, discriminates message types and limits messages by plan', async () => {
    const unknownAccount = await api('POST', '/messages/send', {
      body: { to: '4915112345678', messaging_account_id: 99, type: 'text', content: { body: 'x' } },
    });
    expect(unknownAccount.body.error.details).toEqual({
      messaging_account_id: ['is not a messaging account of this account'],
    });
    const noBody = await api('POST', '/messages/send', {
      body: { to: '4915112345678', messaging_account_id: 1, type: 'text', content: {} },
    });
    expect([noBody.status, noBody.body.error.details]).toEqual([422, { 'content.body': ['is required'] }]);
    const badType = await api('POST', '/messages/send', {
      body: { to: '4915112345678', messaging_account_id: 1, type: 'image', content: {} },
    });
    expect(badType.status).toBe(422);
    const text = { to: '4915112345678', messaging_account_id: 1, type: 'text', content: { body: 'x' } };
    expect((await api('POST', '/messages/send', { body: text })).status).toBe(200);
    expect((await api('POST', '/messages/send', { body: text })).status).toBe(200);
    const third = await api('POST', '/messages/send', { body: text });
    expect([third.status, third.body.error.code]).toEqual([403, 'PLAN_LIMIT_EXCEEDED']);
  });

  it('limits webhook endpoints by plan and checks their fields', async () => {
    const bad = await api('POST', '/webhooks', { body: { url: 'not a url', events: ['message.bounced'], secret: '' } });
    expect(bad.body.error.details).toEqual({
      url: ['must be a valid url'],
      'events.0': [
        'must be one of message.received, message.sent, message.delivered, message.read, message.failed, conversation.created, conversation.closed, contact.created, contact.updated, campaign.completed',
      ],
      secret: ['must not be empty'],
    });
    expect(
      (
        await api('POST', '/webhooks', {
          body: { url: 'https://example.com/a', events: ['message.sent'], secret: 's' },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api('POST', '/webhooks', {
          body: { url: 'https://example.com/b', events: ['message.sent'], secret: 's' },
        })
      ).body.error.code,
    ).toBe('PLAN_LIMIT_EXCEEDED');
  });

  it('checks campaign fields, segment and template', async () => {
    const base = {
      name: 'C',
      messaging_account_id: 1,
      template_name: 'welcome',
      segment_id: 1,
      scheduled_at: '2030-01-01T00:00:00Z',
    };
    expect(
      (await api('POST', '/campaigns', { body: { ...base, scheduled_at: 'tomorrow' } })).body.error.details,
    ).toEqual({ scheduled_at: ['must be a valid ISO 8601 UTC timestamp'] });
    expect((await api('POST', '/campaigns', { body: { ...base, segment_id: 42 } })).body.error.details).toEqual({
      segment_id: ['is not a segment of this account'],
    });
    expect((await api('POST', '/campaigns', { body: { ...base, template_name: 'nope' } })).body.error.code).toBe(
      'TEMPLATE_NOT_FOUND',
    );
    expect((await api('POST', '/campaigns', { body: base })).status).toBe(201);
  });

  it('rejects an unknown conversation status filter', async () => {
    const response = await api('GET', '/conversations?status=archived');
    expect([response.status, response.body.error.details]).toEqual([
      422,
      { status: ['must be one of open, closed, pending'] },
    ]);
  });
});
