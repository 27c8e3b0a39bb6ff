import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Variant2Client } from '../../src/index.js';
import { sendJson, startTestServer } from '../helpers/http-server.js';

const KEY = 'sk_test_v2_0123456789';
let server: Awaited<ReturnType<typeof startTestServer>>;
let client: Variant2Client;

beforeAll(async () => {
  server = await startTestServer();
  client = new Variant2Client({ apiKey: KEY, baseUrl: server.baseUrl });
});
afterAll(() => server.close());

const contact = {
  id: 7,
  name: 'Ada',
  phone: '+4915112345678',
  email: 'ada@example.com',
  tags: ['vip'],
  custom_fields: { tier: 'gold' },
};
const meta = { current_page: 1, per_page: 20, total: 1, last_page: 1 };
const message = { message_id: 'msg_1', status: 'sent', to: '4915112345678' };
const conversation = { id: 'c1', status: 'open', assigned_to: 'agent-1', phone: '+4915112345678' };
const campaign = {
  id: 3,
  name: 'Spring',
  messaging_account_id: 1,
  template_name: 'promo',
  segment_id: 9,
  scheduled_at: '2026-12-01T10:00:00Z',
  status: 'scheduled',
};
const endpoint = { id: 'wh_1', url: 'https://example.com/hook', events: ['message.delivered'], status: 'active' };

interface Case {
  name: string;
  call: (c: Variant2Client) => Promise<unknown>;
  method: string;
  path: string;
  body?: unknown;
  reply: unknown;
  status?: number;
  expected: unknown;
}

const cases: Case[] = [
  {
    name: 'contacts.list with filters',
    call: (c) => c.contacts.list({ page: 2, per_page: 5, search: 'Ada L', tag: 'vip' }).then((p) => [p.data, p.meta]),
    method: 'GET',
    path: '/api/v1/contacts?page=2&per_page=5&search=Ada+L&tag=vip',
    reply: { data: [contact], meta },
    expected: [[contact], meta],
  },
  {
    name: 'contacts.create',
    call: (c) =>
      c.contacts.create({ name: 'Ada', phone: '+4915112345678', tags: ['vip'], custom_fields: { tier: 'gold' } }),
    method: 'POST',
    path: '/api/v1/contacts',
    body: { name: 'Ada', phone: '+4915112345678', tags: ['vip'], custom_fields: { tier: 'gold' } },
    status: 201,
    reply: { data: contact },
    expected: contact,
  },
  {
    name: 'contacts.get (bare body)',
    call: (c) => c.contacts.get(7),
    method: 'GET',
    path: '/api/v1/contacts/7',
    reply: contact,
    expected: contact,
  },
  {
    name: 'contacts.update',
    call: (c) => c.contacts.update('7', { name: 'Ada L' }),
    method: 'PUT',
    path: '/api/v1/contacts/7',
    body: { name: 'Ada L' },
    reply: { data: { ...contact, name: 'Ada L' } },
    expected: { ...contact, name: 'Ada L' },
  },
  {
    name: 'contacts.delete',
    call: (c) => c.contacts.delete(7),
    method: 'DELETE',
    path: '/api/v1/contacts/7',
    reply: { data: { id: 7, deleted: true } },
    expected: { id: 7, deleted: true },
  },
  {
    name: 'messages.send (text)',
    call: (c) =>
      c.messages.send({ to: '4915112345678', messaging_account_id: 1, type: 'text', content: { body: 'Hi' } }),
    method: 'POST',
    path: '/api/v1/messages/send',
    body: { to: '+4915112345678', messaging_account_id: 1, type: 'text', content: { body: 'Hi' } },
    reply: { data: message },
    expected: { ...message, id: 'msg_1' },
  },
  {
    name: 'messages.sendText',
    call: (c) => c.messages.sendText({ to: '4915112345678', messaging_account_id: 1, body: 'Hi' }),
    method: 'POST',
    path: '/api/v1/messages/send',
    body: { to: '+4915112345678', messaging_account_id: 1, type: 'text', content: { body: 'Hi' } },
    reply: { id: 'msg_2', status: 'sent' },
    expected: { id: 'msg_2', status: 'sent' },
  },
  {
    name: 'messages.sendTemplate',
    call: (c) =>
      c.messages.sendTemplate({
        to: '4915112345678',
        messaging_account_id: 1,
        name: 'welcome',
        language: 'en',
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }],
      }),
    method: 'POST',
    path: '/api/v1/messages/send',
    body: {
      to: '+4915112345678',
      messaging_account_id: 1,
      type: 'template',
      content: {
        name: 'welcome',
        language: 'en',
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }],
      },
    },
    reply: { data: { message_id: 'msg_3', status: 'sent' } },
    expected: { message_id: 'msg_3', id: 'msg_3', status: 'sent' },
  },
  {
    name: 'conversations.list',
    call: (c) => c.conversations.list({ status: 'open', assigned_to: 'agent-1', page: 1 }).then((p) => p.data),
    method: 'GET',
    path: '/api/v1/conversations?status=open&assigned_to=agent-1&page=1',
    reply: { data: [conversation], meta },
    expected: [conversation],
  },
  {
    name: 'conversations.get',
    call: (c) => c.conversations.get('c1'),
    method: 'GET',
    path: '/api/v1/conversations/c1',
    reply: { data: { ...conversation, messages: [message] } },
    expected: { ...conversation, messages: [{ ...message, id: 'msg_1' }] },
  },
  {
    name: 'campaigns.list',
    call: (c) => c.campaigns.list().then((p) => p.data),
    method: 'GET',
    path: '/api/v1/campaigns',
    reply: [campaign],
    expected: [campaign],
  },
  {
    name: 'campaigns.create',
    call: (c) =>
      c.campaigns.create({
        name: 'Spring',
        messaging_account_id: 1,
        template_name: 'promo',
        segment_id: 9,
        scheduled_at: '2026-12-01T10:00:00Z',
      }),
    method: 'POST',
    path: '/api/v1/campaigns',
    body: {
      name: 'Spring',
      messaging_account_id: 1,
      template_name: 'promo',
      segment_id: 9,
      scheduled_at: '2026-12-01T10:00:00Z',
    },
    status: 201,
    reply: { data: campaign },
    expected: campaign,
  },
  {
    name: 'webhooks.list',
    call: (c) => c.webhooks.list().then((p) => p.data),
    method: 'GET',
    path: '/api/v1/webhooks',
    reply: { data: [endpoint] },
    expected: [endpoint],
  },
  {
    name: 'webhooks.create',
    call: (c) => c.webhooks.create({ url: 'https://example.com/hook', events: ['message.delivered'], secret: 'whsec' }),
    method: 'POST',
    path: '/api/v1/webhooks',
    body: { url: 'https://example.com/hook', events: ['message.delivered'], secret: 'whsec' },
    status: 201,
    reply: { data: endpoint },
    expected: endpoint,
  },
  {
    name: 'account.me',
    call: (c) => c.account.me(),
    method: 'GET',
    path: '/api/v1/account/me',
    reply: { data: { id: 1, name: 'Acme', plan: 'professional' } },
    expected: { id: 1, name: 'Acme', plan: 'professional' },
  },
];

describe('Variant2Client endpoints', () => {
  it.each(cases)('$name', async ({ call, method, path, body, reply, status, expected }) => {
    server.handle((_, res) => sendJson(res, status ?? 200, reply));
    const before = server.received.length;
    await expect(call(client)).resolves.toEqual(expected);
    expect(server.received.length).toBe(before + 1);
    const request = server.received.at(-1)!;
    expect(request.method).toBe(method);
    expect(request.path).toBe(path);
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.headers['x-api-key']).toBeUndefined();
    expect(request.headers.accept).toBe('application/json');
    if (body === undefined) {
      expect(request.body).toBe('');
    } else {
      expect(request.headers['content-type']).toBe('application/json');
      expect(JSON.parse(request.body)).toEqual(body);
    }
  });

  it('answers a delete with an empty body as { id, deleted: true }', async () => {
    server.handle((_, res) => {
      res.writeHead(204);
      res.end();
    });
    await expect(client.contacts.delete('abc')).resolves.toEqual({ id: 'abc', deleted: true });
  });

  it('URL-encodes ids so that they stay one path segment', async () => {
    server.handle((_, res) => sendJson(res, 200, contact));
    await client.contacts.get('../account/me?x=1#y');
    expect(server.received.at(-1)!.path).toBe('/api/v1/contacts/..%2Faccount%2Fme%3Fx%3D1%23y');
    server.handle((_, res) => sendJson(res, 200, { ...conversation, messages: [] }));
    await client.conversations.get('a b/c');
    expect(server.received.at(-1)!.path).toBe('/api/v1/conversations/a%20b%2Fc');
  });

  it('keeps unknown fields and unknown enum values', async () => {
    const reply = {
      ...conversation,
      status: 'snoozed',
      channel: 'chat',
      messages: [{ id: 'msg_9', status: 'queued_upstream', pinned: true }],
    };
    server.handle((_, res) => sendJson(res, 200, { data: reply }));
    await expect(client.conversations.get('c1')).resolves.toEqual(reply);
    server.handle((_, res) => sendJson(res, 200, { data: [{ ...conversation, status: 'snoozed', channel: 'chat' }] }));
    const page = await client.conversations.list();
    expect(page.data).toEqual([{ ...conversation, status: 'snoozed', channel: 'chat' }]);
  });
});
