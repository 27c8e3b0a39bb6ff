import { describe, expect, it } from 'vitest';
import { createMockServer, type MockServer, type Scope } from '../../src/mock/index.js';
import { errorEnvelope, rawApi, useMocks } from '../helpers/mock-api.js';

const v1 = createMockServer({ variant: 1, baseUrl: 'https://v1.bizmsg.test/api/v1' });
const v2 = createMockServer({ variant: 2, baseUrl: 'https://v2.bizmsg.test/api/v1' });
// Two instances side by side in one process.
useMocks(v1, v2);

/** One request per endpoint of each variant, with the scope it needs (design.md's mapping). */
const endpoints: Record<1 | 2, Array<[string, string, Scope, unknown?]>> = {
  1: [
    ['POST', '/messages/send', 'messages:send', { to: '4915112345678', message: 'hi' }],
    [
      'POST',
      '/messages/template',
      'messages:send',
      { to: '4915112345678', name: 'welcome', language: 'en', components: [] },
    ],
    ['GET', '/messages/msg_1/status', 'messages:read'],
    ['GET', '/contacts', 'contacts:read'],
    ['POST', '/contacts/create', 'contacts:write', { name: 'A', phone: '4915112345678' }],
    ['PUT', '/contacts/1', 'contacts:write', { name: 'B' }],
    ['GET', '/contacts/1', 'contacts:read'],
    ['POST', '/automations/trigger', 'automations:trigger', { automation_id: 'welcome-flow' }],
    ['GET', '/account/me', 'account:read'],
  ],
  2: [
    ['GET', '/contacts', 'contacts:read'],
    ['POST', '/contacts', 'contacts:write', { name: 'A', phone: '4915112345678' }],
    ['GET', '/contacts/1', 'contacts:read'],
    ['PUT', '/contacts/1', 'contacts:write', { name: 'B' }],
    ['DELETE', '/contacts/1', 'contacts:write'],
    [
      'POST',
      '/messages/send',
      'messages:send',
      { to: '4915112345678', messaging_account_id: 1, type: 'text', content: { body: 'hi' } },
    ],
    ['GET', '/conversations', 'messages:read'],
    ['GET', '/conversations/1', 'messages:read'],
    ['GET', '/campaigns', 'messages:read'],
    [
      'POST',
      '/campaigns',
      'messages:send',
      {
        name: 'C',
        messaging_account_id: 1,
        template_name: 'promo',
        segment_id: 1,
        scheduled_at: '2030-01-01T00:00:00Z',
      },
    ],
    ['GET', '/webhooks', 'webhooks:manage'],
    ['POST', '/webhooks', 'webhooks:manage', { url: 'https://example.com/h', events: ['message.sent'], secret: 's' }],
    ['GET', '/account/me', 'account:read'],
  ],
};

describe.each([
  [1, v1],
  [2, v2],
] as Array<[1 | 2, MockServer]>)('Variant %i', (variant, mock) => {
  const api = rawApi(mock);

  it('answers 401 AUTHENTICATION_ERROR without a key, in its own envelope', async () => {
    const response = await api('GET', '/account/me', { key: null });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(
      errorEnvelope(variant, {
        code: 'AUTHENTICATION_ERROR',
        message: `Missing API key: send it in the ${variant === 1 ? 'X-API-Key header' : 'Authorization: Bearer header'}.`,
      }),
    );
  });

  it('answers 401 AUTHENTICATION_ERROR to an unknown key', async () => {
    const response = await api('GET', '/account/me', { key: 'sk_test_unknown' });
    expect([response.status, response.body]).toEqual([
      401,
      errorEnvelope(variant, { code: 'AUTHENTICATION_ERROR', message: 'Invalid API key.' }),
    ]);
  });

  it("ignores the other variant's header", async () => {
    const header: Record<string, string> =
      variant === 1 ? { authorization: `Bearer ${mock.apiKey}` } : { 'x-api-key': mock.apiKey };
    expect((await api('GET', '/account/me', { key: null, headers: header })).status).toBe(401);
  });

  it('answers 401 KEY_REVOKED to a revoked key', async () => {
    const key = mock.createKey();
    expect((await api('GET', '/account/me', { key })).status).toBe(200);
    mock.revokeKey(key);
    const response = await api('GET', '/account/me', { key });
    expect([response.status, response.body]).toEqual([401, errorEnvelope(variant, { code: 'KEY_REVOKED' })]);
  });

  it('gives a key created with scopes: [] no scope at all', async () => {
    const key = mock.createKey({ scopes: [] });
    expect(mock.store.keys.get(key)?.scopes).toEqual([]);
    const response = await api('GET', '/account/me', { key });
    expect([response.status, response.body]).toEqual([
      403,
      errorEnvelope(variant, {
        code: 'INSUFFICIENT_PERMISSIONS',
        message: 'This API key lacks the account:read scope.',
        details: { required_scope: 'account:read' },
      }),
    ]);
  });

  it.each(endpoints[variant])('%s %s needs %s', async (method, path, scope, body) => {
    const others = mock.createKey({
      scopes: [
        'account:read',
        'contacts:read',
        'messages:read',
        'messages:send',
        'contacts:write',
        'automations:trigger',
        'webhooks:manage',
      ].filter((s) => s !== scope) as Scope[],
    });
    const denied = await api(method, path, { key: others, body });
    expect([denied.status, denied.body]).toEqual([
      403,
      errorEnvelope(variant, {
        code: 'INSUFFICIENT_PERMISSIONS',
        message: `This API key lacks the ${scope} scope.`,
        details: { required_scope: scope },
      }),
    ]);
    const allowed = await api(method, path, { key: mock.createKey({ scopes: [scope] }), body });
    expect(allowed.status).not.toBe(403);
  });

  it('gives a key created without scopes every scope', async () => {
    const key = mock.createKey();
    const me = await api('GET', '/account/me', { key });
    expect(me.body.data.scopes).toHaveLength(7);
  });

  it('answers 404 RESOURCE_NOT_FOUND to a path the variant does not have', async () => {
    const response = await api('GET', variant === 1 ? '/conversations' : '/messages/msg_1/status');
    expect([response.status, response.body]).toEqual([404, errorEnvelope(variant, { code: 'RESOURCE_NOT_FOUND' })]);
  });
});

describe.each([
  [1, v1],
  [2, v2],
] as Array<[1 | 2, MockServer]>)('Variant %i error answers never carry a key', (variant, mock) => {
  it('not even one the request put in its path or template name', async () => {
    const api = rawApi(mock);
    const other = mock.createKey({ scopes: ['account:read'] });
    const answers = [
      await api('GET', `/contacts/${mock.apiKey}`),
      await api('GET', `/contacts/x${other}x`),
      await api('GET', `/no/such/${other}`),
      variant === 1
        ? await api('POST', '/messages/template', {
            body: { to: '4915112345678', name: mock.apiKey, language: 'en', components: [] },
          })
        : await api('POST', '/messages/send', {
            body: {
              to: '4915112345678',
              messaging_account_id: 1,
              type: 'template',
              content: { name: mock.apiKey, language: 'en', components: [] },
            },
          }),
    ];
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 400]);
    for (const answer of answers) {
      const text = JSON.stringify(answer.body);
      expect([text.includes(mock.apiKey), text.includes(other), text.includes('[redacted]')]).toEqual([
        false,
        false,
        true,
      ]);
    }
    expect(answers[0]!.body.error.message).toBe('Contact [redacted] does not exist.');
  });
});
