import { describe, expect, it } from 'vitest';
import { createMockServer, InvalidArgumentError, LIFECYCLE_MS, MAGIC_NUMBERS } from '../../src/mock/index.js';
import { rawApi, useMocks } from '../helpers/mock-api.js';

const v1 = createMockServer({ variant: 1, baseUrl: 'https://v1.bizmsg.test/api/v1' });
const v2 = createMockServer({ variant: 2, baseUrl: 'https://v2.bizmsg.test/api/v1' });
const api1 = rawApi(v1);
const api2 = rawApi(v2);
// Two instances side by side in one process.
useMocks(v1, v2);

async function seedContacts(count: number, tag = (i: number) => (i % 3 === 0 ? ['vip'] : [])) {
  for (let i = 1; i <= count; i++) {
    await api2('POST', '/contacts', {
      body: {
        name: `Contact ${i}`,
        phone: `49151000${String(i).padStart(5, '0')}`,
        email: `c${i}@example.com`,
        tags: tag(i),
      },
    });
  }
}

describe('contacts (Variant 2)', () => {
  it('creates, gets, updates and deletes', async () => {
    const created = await api2('POST', '/contacts', {
      body: {
        name: 'Ada',
        phone: '+4915112345678',
        email: 'ada@example.com',
        tags: ['vip'],
        custom_fields: { tier: 'gold' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: 1,
      name: 'Ada',
      phone: '+4915112345678',
      email: 'ada@example.com',
      tags: ['vip'],
      custom_fields: { tier: 'gold' },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await api2('GET', '/contacts/1')).body.data.name).toBe('Ada');
    const updated = await api2('PUT', '/contacts/1', { body: { name: 'Ada L', tags: [] } });
    expect([updated.body.data.name, updated.body.data.tags, updated.body.data.phone]).toEqual([
      'Ada L',
      [],
      '+4915112345678',
    ]);
    expect((await api2('DELETE', '/contacts/1')).body).toEqual({ data: { id: 1, deleted: true } });
    expect((await api2('GET', '/contacts/1')).status).toBe(404);
    expect((await api2('DELETE', '/contacts/1')).status).toBe(404);
  });

  it('pages with exact meta', async () => {
    await seedContacts(45);
    const first = await api2('GET', '/contacts');
    expect([first.body.data.length, first.body.meta]).toEqual([
      20,
      { current_page: 1, per_page: 20, total: 45, last_page: 3 },
    ]);
    const last = await api2('GET', '/contacts?page=5&per_page=10');
    expect([last.body.data.map((c: { id: number }) => c.id), last.body.meta]).toEqual([
      [41, 42, 43, 44, 45],
      { current_page: 5, per_page: 10, total: 45, last_page: 5 },
    ]);
    const beyond = await api2('GET', '/contacts?page=9&per_page=10');
    expect([beyond.body.data, beyond.body.meta]).toEqual([
      [],
      { current_page: 9, per_page: 10, total: 45, last_page: 5 },
    ]);
  });

  it('filters by search text and tag, with meta of the filtered list', async () => {
    await seedContacts(30);
    const vip = await api2('GET', '/contacts?tag=vip&per_page=4');
    expect(vip.body.meta).toEqual({ current_page: 1, per_page: 4, total: 10, last_page: 3 });
    expect(vip.body.data.every((c: { tags: string[] }) => c.tags.includes('vip'))).toBe(true);
    const search = await api2('GET', '/contacts?search=CONTACT%202');
    expect(search.body.data.map((c: { name: string }) => c.name)).toEqual([
      'Contact 2',
      'Contact 20',
      'Contact 21',
      'Contact 22',
      'Contact 23',
      'Contact 24',
      'Contact 25',
      'Contact 26',
      'Contact 27',
      'Contact 28',
      'Contact 29',
    ]);
    expect((await api2('GET', '/contacts?search=c7%40example')).body.data.map((c: { id: number }) => c.id)).toEqual([
      7,
    ]);
  });
});

describe('contacts (Variant 1)', () => {
  it('creates with POST /contacts/create and wraps everything in {success, data}', async () => {
    const created = await api1('POST', '/contacts/create', {
      body: { phone: '4915112345678', name: 'Ada', tags: ['vip'] },
    });
    expect([created.status, created.body.success, created.body.data.id]).toEqual([200, true, 1]);
    const list = await api1('GET', '/contacts?per_page=1');
    expect(list.body).toEqual({
      success: true,
      data: [created.body.data],
      meta: { current_page: 1, per_page: 1, total: 1, last_page: 1 },
    });
    expect((await api1('PUT', '/contacts/1', { body: { email: 'ada@example.com' } })).body.data.email).toBe(
      'ada@example.com',
    );
    expect((await api1('DELETE', '/contacts/1')).status).toBe(404);
  });

  it('keeps custom_fields on create, as on update and as its document says', async () => {
    const created = await api1('POST', '/contacts/create', {
      body: { phone: '4915112345678', name: 'Ada', custom_fields: { a: 1, tier: { level: 'gold' } } },
    });
    expect([created.status, created.body.data.custom_fields]).toEqual([200, { a: 1, tier: { level: 'gold' } }]);
    expect((await api1('GET', '/contacts/1')).body.data.custom_fields).toEqual({ a: 1, tier: { level: 'gold' } });
    const updated = await api1('PUT', '/contacts/1', { body: { custom_fields: { a: 2 } } });
    expect(updated.body.data.custom_fields).toEqual({ a: 2 });
  });
});

describe('message lifecycle on the clock', () => {
  const text = (to: string) => ({ to, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } });

  it('goes sent -> delivered (with delivered_at) -> read', async () => {
    const sent = await api2('POST', '/messages/send', { body: text('4915112345678') });
    expect(sent.body.data).toMatchObject({
      id: 'msg_1',
      status: 'sent',
      to: '4915112345678',
      type: 'text',
      content: { body: 'Hi' },
    });
    const sentAt = Date.parse(sent.body.data.created_at);
    await v2.clock.advance(LIFECYCLE_MS.delivered);
    const delivered = v2.store.messages.get('msg_1')!;
    expect(delivered.status).toBe('delivered');
    expect(Date.parse(delivered.delivered_at!) - sentAt).toBeGreaterThanOrEqual(LIFECYCLE_MS.delivered);
    await v2.clock.advance(LIFECYCLE_MS.read);
    expect(v2.store.messages.get('msg_1')!.status).toBe('read');
  });

  it('fails or never delivers for the magic numbers', async () => {
    await api2('POST', '/messages/send', { body: text(MAGIC_NUMBERS.fails) });
    await api2('POST', '/messages/send', { body: text(MAGIC_NUMBERS.neverDelivered) });
    await v2.clock.advance(3_600_000);
    expect([...v2.store.messages.values()].map((m) => [m.to, m.status])).toEqual([
      [MAGIC_NUMBERS.fails, 'failed'],
      [MAGIC_NUMBERS.neverDelivered, 'sent'],
    ]);
  });

  it('reports the status on Variant 1 under message_id', async () => {
    const sent = await api1('POST', '/messages/send', { body: { to: '4915112345678', message: 'Hi' } });
    expect(sent.body.data).toMatchObject({ message_id: 'msg_1', status: 'sent' });
    expect((await api1('GET', '/messages/msg_1/status')).body.data).toMatchObject({
      message_id: 'msg_1',
      status: 'sent',
    });
    await v1.clock.advance(LIFECYCLE_MS.delivered);
    expect((await api1('GET', '/messages/msg_1/status')).body.data).toMatchObject({
      status: 'delivered',
      delivered_at: expect.any(String),
    });
    expect((await api1('GET', '/messages/msg_404/status')).status).toBe(404);
  });
});

describe('conversations (Variant 2)', () => {
  it('are opened by the first message to or from a number, and hold its messages', async () => {
    await api2('POST', '/messages/send', {
      body: { to: '+4915112345678', messaging_account_id: 1, type: 'text', content: { body: 'Hi' } },
    });
    v2.receiveMessage({ from: '4915112345678', body: 'Hello back' });
    v2.receiveMessage({ from: '+4917000000000', body: 'Who is this?' });
    const list = await api2('GET', '/conversations');
    expect(list.body.meta.total).toBe(2);
    const first = await api2('GET', '/conversations/1');
    expect(first.body.data.messages.map((m: { direction: string; status: string }) => [m.direction, m.status])).toEqual(
      [
        ['outbound', 'sent'],
        ['inbound', 'received'],
      ],
    );
  });

  it('filter by status and assignee', async () => {
    for (const from of ['4915100000001', '4915100000002', '4915100000003']) v2.receiveMessage({ from, body: 'x' });
    v2.updateConversation(1, { status: 'closed' });
    v2.updateConversation(2, { status: 'pending', assigned_to: 'agent-7' });
    const ids = async (query: string) =>
      (await api2('GET', `/conversations?${query}`)).body.data.map((c: { id: number }) => c.id);
    expect(await ids('status=open')).toEqual([3]);
    expect(await ids('status=closed')).toEqual([1]);
    expect(await ids('assigned_to=agent-7')).toEqual([2]);
    expect(await ids('status=open&assigned_to=agent-7')).toEqual([]);
    expect((await api2('GET', '/conversations/99')).status).toBe(404);
  });
});

describe('campaigns (Variant 2)', () => {
  it('send to their segment at scheduled_at on the clock, then complete', async () => {
    await seedContacts(6);
    const at = new Date(v2.clock.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const created = await api2('POST', '/campaigns', {
      body: { name: 'VIP promo', messaging_account_id: 1, template_name: 'promo', segment_id: 2, scheduled_at: at },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ id: 1, status: 'scheduled', sent_count: 0 });
    await v2.clock.advance(3_000_000);
    expect(v2.store.messages.size).toBe(0);
    await v2.clock.advance(700_000);
    const campaign = (await api2('GET', '/campaigns')).body.data[0];
    expect(campaign).toMatchObject({ status: 'completed', sent_count: 2 });
    expect([...v2.store.messages.values()].map((m) => [m.to, m.type, m.content.name])).toEqual([
      ['4915100000003', 'template', 'promo'],
      ['4915100000006', 'template', 'promo'],
    ]);
  });
});

describe('account and automations', () => {
  it('tells the key plan, on both variants', async () => {
    expect((await api2('GET', '/account/me')).body.data).toMatchObject({
      id: 1,
      name: 'Acme Test Account',
      email: 'owner@acme.test',
      plan: 'enterprise',
    });
    expect((await api1('GET', '/account/me', { key: v1.createKey({ plan: 'growth' }) })).body.data.plan).toBe('growth');
  });

  it('triggers known automations (Variant 1) and 404s unknown ones', async () => {
    expect(
      (await api1('POST', '/automations/trigger', { body: { automation_id: 'welcome-flow', to: '4915112345678' } }))
        .body.data,
    ).toEqual({ id: 'run_1', automation_id: 'welcome-flow', status: 'started' });
    expect((await api1('POST', '/automations/trigger', { body: { automation_id: 'nope' } })).status).toBe(404);
  });
});

it('reset() brings back the seeded state', async () => {
  await seedContacts(2);
  const key = v2.createKey();
  v2.reset();
  expect(v2.store.contacts).toEqual([]);
  expect((await api2('GET', '/account/me', { key })).status).toBe(401);
  expect((await api2('GET', '/account/me')).status).toBe(200);
});

describe('seed data', () => {
  it('starts with the seeded contacts and endpoints, and reset() brings them back', async () => {
    const seeded = createMockServer({
      variant: 2,
      baseUrl: 'https://seeded.bizmsg.test/api/v1',
      seed: {
        random: 5,
        contacts: [
          { name: 'Ada', phone: '+4915112345678', tags: ['vip'] },
          { name: 'Bob', phone: '4915100000002' },
        ],
        webhooks: [{ url: 'https://example.com/h', events: ['contact.created'], secret: 's' }],
      },
    });
    const api = rawApi(seeded);
    seeded.listen();
    try {
      expect(
        (await api('GET', '/contacts')).body.data.map((c: { id: number; name: string }) => [c.id, c.name]),
      ).toEqual([
        [1, 'Ada'],
        [2, 'Bob'],
      ]);
      expect((await api('GET', '/webhooks')).body.data).toEqual([
        expect.objectContaining({ id: 1, url: 'https://example.com/h', status: 'active' }),
      ]);
      await api('DELETE', '/contacts/1');
      seeded.reset();
      expect(seeded.store.contacts.map((c) => c.name)).toEqual(['Ada', 'Bob']);
      expect(seeded.apiKey).toBe(createMockServer({ seed: { random: 5 } }).apiKey);
    } finally {
      seeded.close();
    }
  });

  it('rejects bad seed data with what is wrong', () => {
    expect(() => createMockServer({ seed: { contacts: [{ name: 'A', phone: '12' }] } })).toThrow(
      new InvalidArgumentError(
        'seed: contacts.0.phone must be an international number: 8 to 15 digits, not starting with 0, with or without a leading +.',
      ),
    );
    expect(() =>
      createMockServer({ seed: { webhooks: [{ url: 'nope', events: ['message.sent'], secret: 's' }] } }),
    ).toThrow(new InvalidArgumentError('seed: webhooks.0.url must be a valid url.'));
    expect(() => createMockServer({ seed: { contact: [] } as never })).toThrow(
      new InvalidArgumentError('seed: contact is not a known field.'),
    );
  });
});
