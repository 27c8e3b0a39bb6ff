import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseValidationError, Variant1Client } from '../../src/index.js';
import { sendJson, startTestServer } from '../helpers/http-server.js';

const KEY = 'sk_test_v1_0123456789';
let server: Awaited<ReturnType<typeof startTestServer>>;
let client: Variant1Client;

beforeAll(async () => {
  server = await startTestServer();
  client = new Variant1Client({ apiKey: KEY, baseUrl: server.baseUrl });
});
afterAll(() => server.close());

const ok = (data: unknown, extra: Record<string, unknown> = {}) => ({ success: true, data, ...extra });
const contact = { id: 'ct_1', name: 'Ada', phone: '4915112345678', tags: ['vip'] };
const meta = { current_page: 1, per_page: 2, total: 1, last_page: 1 };

interface Case {
  name: string;
  call: (c: Variant1Client) => Promise<unknown>;
  method: string;
  path: string;
  body?: unknown;
  reply: unknown;
  expected: unknown;
}

const cases: Case[] = [
  {
    name: 'messages.send',
    call: (c) => c.messages.send({ to: '4915112345678', message: 'Hello' }),
    method: 'POST',
    path: '/api/v1/messages/send',
    body: { to: '+4915112345678', message: 'Hello' },
    reply: ok({ message_id: 'msg_1', status: 'sent' }),
    expected: { message_id: 'msg_1', id: 'msg_1', status: 'sent' },
  },
  {
    name: 'messages.sendTemplate',
    call: (c) => c.messages.sendTemplate({ to: '4915112345678', name: 'welcome', language: 'en', components: [] }),
    method: 'POST',
    path: '/api/v1/messages/template',
    body: { to: '+4915112345678', name: 'welcome', language: 'en', components: [] },
    reply: ok({ id: 'msg_2', status: 'sent' }),
    expected: { id: 'msg_2', status: 'sent' },
  },
  {
    name: 'messages.status',
    call: (c) => c.messages.status('msg_1'),
    method: 'GET',
    path: '/api/v1/messages/msg_1/status',
    reply: ok({ message_id: 'msg_1', status: 'delivered', delivered_at: '2026-11-21T10:00:00Z' }),
    expected: { message_id: 'msg_1', id: 'msg_1', status: 'delivered', delivered_at: '2026-11-21T10:00:00Z' },
  },
  {
    name: 'contacts.list',
    call: (c) => c.contacts.list({ page: 1, per_page: 2 }).then((p) => [p.data, p.meta]),
    method: 'GET',
    path: '/api/v1/contacts?page=1&per_page=2',
    reply: ok([contact], { meta }),
    expected: [[contact], meta],
  },
  {
    name: 'contacts.create',
    call: (c) => c.contacts.create({ phone: '4915112345678', name: 'Ada', tags: ['vip'], email: 'ada@example.com' }),
    method: 'POST',
    path: '/api/v1/contacts/create',
    body: { phone: '+4915112345678', name: 'Ada', tags: ['vip'], email: 'ada@example.com' },
    reply: ok(contact),
    expected: contact,
  },
  {
    name: 'contacts.get',
    call: (c) => c.contacts.get('ct_1'),
    method: 'GET',
    path: '/api/v1/contacts/ct_1',
    reply: ok(contact),
    expected: contact,
  },
  {
    name: 'contacts.update',
    call: (c) => c.contacts.update('ct_1', { tags: [] }),
    method: 'PUT',
    path: '/api/v1/contacts/ct_1',
    body: { tags: [] },
    reply: ok({ ...contact, tags: [] }),
    expected: { ...contact, tags: [] },
  },
  {
    name: 'automations.trigger',
    call: (c) => c.automations.trigger({ automation_id: 'welcome-flow', to: '4915112345678', data: { coupon: 'X1' } }),
    method: 'POST',
    path: '/api/v1/automations/trigger',
    body: { automation_id: 'welcome-flow', to: '+4915112345678', data: { coupon: 'X1' } },
    reply: ok({ id: 'run_1', status: 'started' }),
    expected: { id: 'run_1', status: 'started' },
  },
  {
    name: 'account.me',
    call: (c) => c.account.me(),
    method: 'GET',
    path: '/api/v1/account/me',
    reply: ok({ id: 1, name: 'Acme', plan: 'growth', email: 'owner@acme.test' }),
    expected: { id: 1, name: 'Acme', plan: 'growth', email: 'owner@acme.test' },
  },
];

describe('Variant1Client endpoints', () => {
  it.each(cases)('$name', async ({ call, method, path, body, reply, expected }) => {
    server.handle((_, res) => sendJson(res, 200, reply));
    await expect(call(client)).resolves.toEqual(expected);
    const request = server.received.at(-1)!;
    expect(request.method).toBe(method);
    expect(request.path).toBe(path);
    expect(request.headers['x-api-key']).toBe(KEY);
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body === '' ? undefined : JSON.parse(request.body)).toEqual(body);
  });

  it('rejects a success body without the Variant 1 envelope', async () => {
    server.handle((_, res) => sendJson(res, 200, contact));
    const error = await client.contacts.get('ct_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).message).toBe(
      'GET /contacts/ct_1 returned a body that is not a Variant 1 success envelope',
    );
    expect((error as ResponseValidationError).body).toBe(JSON.stringify(contact));
  });

  it('reports where a body does not fit, with the zod issues and raw body', async () => {
    const body = ok({ id: 'ct_1', name: 'Ada', phone: [4915112345678] });
    server.handle((_, res) => sendJson(res, 200, body));
    const error = (await client.contacts.get('ct_1').catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toBe(
      'GET /contacts/ct_1 returned a body that does not match the expected shape at data.phone: must be a string',
    );
    expect(error.issues).toEqual([{ path: ['data', 'phone'], message: 'must be a string', code: 'invalid_type' }]);
    expect(JSON.parse(error.body)).toEqual(body);
  });

  it('reports a body that is not JSON', async () => {
    server.handle((_, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('OK');
    });
    const error = (await client.account.me().catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toBe('GET /account/me returned a body that is not JSON');
    expect(error.body).toBe('OK');
  });

  it('rejects ids that would change the path', async () => {
    await expect(client.contacts.get('..')).rejects.toThrow('".." is not a valid id.');
    await expect(async () => client.contacts.get('')).rejects.toThrow(
      'An id must be a non-empty string or a non-negative integer, got an empty string.',
    );
  });
});
