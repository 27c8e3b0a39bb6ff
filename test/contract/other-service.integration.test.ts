// Every client method of both variants against "another service" (test/helpers/other-service.ts):
// one that follows the spec and differs from bizmsg's guesses wherever the spec is silent. Each call
// succeeds with what bizmsg can read, and its drift report says exactly what differed, never a value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ResponseValidationError,
  Variant1Client,
  Variant2Client,
  type ClientOptions,
  type DriftReport,
  type Logger,
} from '../../src/index.js';
import { OTHER_KEY, OtherService, VALUES } from '../helpers/other-service.js';

type Drift = Partial<Pick<DriftReport, 'missing' | 'unexpected' | 'mismatched'>>;
const report = (operation: string, drift: Drift): DriftReport => ({
  source: 'response',
  operation,
  missing: [],
  unexpected: [],
  mismatched: [],
  ...drift,
});
const type = (path: string, expected: string, received: string) => ({ path, expected, received });

/** What the other service's contacts differ in, at `at` (`data`, `data[]` or the root). */
const contactDrift = (at: string, envelope: string[]): Drift => ({
  missing: [`${at}.created_at`],
  unexpected: [`${at}.created`, ...envelope],
  mismatched: [
    type(`${at}.tags`, 'array', 'string'),
    type(`${at}.custom_fields`, 'object', 'array'),
    type(`${at}.updated_at`, 'string | null', 'number'),
  ],
});
/** The service's times are epoch seconds: read as the instant, and reported. */
const AT_ISO = '2026-11-22T10:00:00.000Z';
const ada = {
  id: 100,
  name: 'Ada Lovelace',
  phone: '+4915112345678',
  email: 'ada@example.com',
  created: 1795341600,
  updated_at: AT_ISO,
};
/** The contact each client creates, as the service answers it. */
const grace = { id: 101, name: 'Grace Hopper', phone: '+4915100000002', created: 1795341600, updated_at: AT_ISO };
const MESSAGE_FIELDS = [
  'direction',
  'messaging_account_id',
  'to',
  'from',
  'type',
  'content',
  'conversation_id',
  'created_at',
];

/** A place to run the clients: the service in process (the `fetch` option), or over real HTTP. */
type Where = (service: OtherService) => Promise<{ baseUrl: string; fetch?: typeof fetch; close?: () => Promise<void> }>;
const PLACES: Array<[string, Where]> = [
  ['in process', (service) => Promise.resolve({ baseUrl: service.baseUrl, fetch: service.fetch })],
  ['over HTTP', (service) => service.listen()],
];

describe.each(PLACES)('the clients against another service, %s', (_, where) => {
  const reports: DriftReport[] = [];
  const lines: string[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: (m) => void lines.push(`info ${m}`),
    warn: (m) => void lines.push(`warn ${m}`),
    error: (m) => void lines.push(`error ${m}`),
  };
  const closes: Array<() => Promise<void>> = [];
  /** Two clients of a variant, each with a service of its own: one reporting to onDrift, one logging. */
  const clients = async <C>(variant: 1 | 2, make: (options: ClientOptions) => C) => {
    const client = async (options: ClientOptions) => {
      const place = await where(new OtherService(variant));
      if (place.close) closes.push(place.close);
      return make({ apiKey: OTHER_KEY, baseUrl: place.baseUrl, fetch: place.fetch, rateLimit: false, ...options });
    };
    return {
      reported: await client({ onDrift: (r) => void reports.push(r) }),
      logged: await client({ logger, logLevel: 'info' }),
    };
  };
  /** The lines about drift (the others name each call, with its path). */
  const driftLines = () => lines.filter((line) => line.includes('differs from what bizmsg expects'));
  let v1: Awaited<ReturnType<typeof clients<Variant1Client>>>;
  let v2: Awaited<ReturnType<typeof clients<Variant2Client>>>;
  beforeAll(async () => {
    v1 = await clients(1, (options) => new Variant1Client(options));
    v2 = await clients(2, (options) => new Variant2Client(options));
  });
  afterAll(async () => {
    for (const close of closes) await close();
    // No report and no line about drift holds a value the service sent, or the key.
    expect(driftLines().length).toBeGreaterThan(100);
    const said = JSON.stringify([reports, driftLines()]);
    for (const value of VALUES) expect(said).not.toContain(value);
  });

  /** Runs `call` on the reporting client, then on the logging one; resolves with the result and the reports. */
  async function run<T>(
    call: (client: 'reported' | 'logged') => Promise<T>,
  ): Promise<{ result: T; reports: DriftReport[] }> {
    reports.length = 0;
    const result = await call('reported');
    const made = [...reports];
    expect(await call('logged')).toEqual(result);
    return { result, reports: made };
  }

  it('Variant 1: messages.send, sendTemplate and status', async () => {
    const sent = {
      id: 'msg_7001',
      status: 'accepted',
      recipient: { phone: '4915112345678' },
      created: 1795341600,
    };
    const sendDrift = (operation: string) =>
      report(operation, {
        missing: MESSAGE_FIELDS.map((field) => `data.${field}`),
        unexpected: ['data.recipient', 'data.created', 'request_id'],
      });
    expect(await run((c) => v1[c].messages.send({ to: '+4915112345678', message: 'Hi' }))).toEqual({
      result: sent,
      reports: [sendDrift('POST /messages/send')],
    });
    const template = { to: '+4915112345678', name: 'promo', language: 'en', components: [] };
    expect(await run((c) => v1[c].messages.sendTemplate(template))).toEqual({
      result: sent,
      reports: [sendDrift('POST /messages/template')],
    });
    expect(await run((c) => v1[c].messages.status('msg_7001'))).toEqual({
      result: { id: 'msg_7001', message_id: 'msg_7001', status: 'delivered', delivered_at: AT_ISO },
      reports: [
        report('GET /messages/{id}/status', {
          missing: MESSAGE_FIELDS.filter((field) => field !== 'to').map((field) => `data.${field}`),
          unexpected: ['request_id'],
          mismatched: [
            type('data.to', 'string | null', 'number'),
            type('data.delivered_at', 'string | null', 'number'),
          ],
        }),
      ],
    });
  });

  it('Variant 1: contacts.list (every page), create, get and update', async () => {
    const page = await run(async (c) => (await v1[c].contacts.list()).data);
    expect(page).toEqual({ result: [ada], reports: [report('GET /contacts', contactDrift('data[]', ['request_id']))] });
    const walked = await run(async (c) => {
      const all = [];
      for await (const contact of v1[c].contacts.list({ per_page: 1 })) all.push(contact.id);
      return all;
    });
    expect(walked.result).toEqual([100]);
    const created = await run((c) =>
      v1[c].contacts.create({ name: 'Grace Hopper', phone: '+4915100000002', tags: ['navy'] }),
    );
    expect(created.result).toEqual(grace);
    expect(created.reports).toEqual([report('POST /contacts/create', contactDrift('data', ['request_id']))]);
    expect(await run((c) => v1[c].contacts.get(100))).toEqual({
      result: ada,
      reports: [report('GET /contacts/{id}', contactDrift('data', ['request_id']))],
    });
    expect(await run((c) => v1[c].contacts.update(100, { email: 'ada@example.com' }))).toEqual({
      result: ada,
      reports: [report('PUT /contacts/{id}', contactDrift('data', ['request_id']))],
    });
  });

  it('Variant 1: automations.trigger and account.me', async () => {
    expect(await run((c) => v1[c].automations.trigger({ automation_id: 'welcome' }))).toEqual({
      result: { run_id: 'run_9', state: 'queued' },
      reports: [
        report('POST /automations/trigger', {
          missing: ['data.id', 'data.automation_id', 'data.status'],
          unexpected: ['data.run_id', 'data.state', 'request_id'],
        }),
      ],
    });
    expect(await run((c) => v1[c].account.me())).toEqual({
      result: { account_id: 7, company: { name: 'Acme' } },
      reports: [
        report('GET /account/me', {
          missing: ['data.id', 'data.name', 'data.email'],
          unexpected: ['data.account_id', 'data.company', 'request_id'],
          mismatched: [type('data.plan', 'string | null', 'object'), type('data.scopes', 'array', 'string')],
        }),
      ],
    });
  });

  it('Variant 2: contacts.list, create, get, update, findByPhone, upsert and delete', async () => {
    const listDrift = report('GET /contacts', contactDrift('data[]', ['links']));
    expect(await run(async (c) => (await v2[c].contacts.list({ tag: 'vip' })).data)).toEqual({
      result: [ada],
      reports: [listDrift],
    });
    const created = await run((c) => v2[c].contacts.create({ name: 'Grace Hopper', phone: '+4915100000002' }));
    expect(created.result).toEqual(grace);
    expect(created.reports).toEqual([report('POST /contacts', contactDrift('', []))].map(atRoot));
    expect(await run((c) => v2[c].contacts.get(100))).toEqual({
      result: ada,
      reports: [report('GET /contacts/{id}', contactDrift('data', []))],
    });
    expect(await run((c) => v2[c].contacts.update(100, { name: 'Ada Lovelace' }))).toEqual({
      result: ada,
      reports: [report('PUT /contacts/{id}', contactDrift('data', []))],
    });
    expect(await run((c) => v2[c].contacts.findByPhone('0049 151 1234 5678'))).toEqual({
      result: ada,
      reports: [listDrift],
    });
    const upserted = await run((c) => v2[c].contacts.upsert({ phone: '+49 151 1234 5678', name: 'Ada Lovelace' }));
    expect(upserted.result).toEqual({ contact: ada, created: false });
    expect(upserted.reports).toEqual([listDrift, report('PUT /contacts/{id}', contactDrift('data', []))]);
    const deleted = await run((c) => v2[c].contacts.delete(101));
    expect(deleted.result).toMatchObject({ object: 'contact' });
    expect(deleted.reports).toEqual([
      report('DELETE /contacts/{id}', { unexpected: ['object'], mismatched: [type('deleted', 'boolean', 'string')] }),
    ]);
  });

  it('Variant 2: messages.send, sendText and sendTemplate', async () => {
    const sent = {
      id: 'msg_7002',
      message_id: 'msg_7002',
      status: 'queued',
      to: '4915112345678',
      timestamp: 1795341600,
      messaging_product: 'whatsapp',
    };
    const drift = report('POST /messages/send', {
      missing: MESSAGE_FIELDS.filter((field) => field !== 'to'),
      unexpected: ['timestamp', 'messaging_product'],
    });
    const to = '+4915112345678';
    for (const send of [
      (c: 'reported' | 'logged') => v2[c].messages.sendText({ to, messaging_account_id: 1, body: 'Hi' }),
      (c: 'reported' | 'logged') =>
        v2[c].messages.sendTemplate({ to, messaging_account_id: 1, name: 'promo', language: 'en', components: [] }),
      (c: 'reported' | 'logged') =>
        v2[c].messages.send({ to, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } }),
    ])
      expect(await run(send)).toEqual({ result: sent, reports: [drift] });
  });

  it('Variant 2: conversations.list and get', async () => {
    const conversation = {
      id: 'conv_1',
      status: 'open',
      created_at: '2026-11-22T11:00:00+01:00',
      updated_at: AT_ISO,
      assignee: { id: 3, name: 'Sam' },
      contact: { phone: '+4915112345678' },
    };
    expect(await run(async (c) => (await v2[c].conversations.list({ status: 'open' })).data)).toEqual({
      result: [conversation],
      reports: [
        report('GET /conversations', {
          missing: ['data[].assigned_to', 'data[].phone'],
          unexpected: ['data[].assignee', 'data[].contact', 'links'],
          mismatched: [type('data[].updated_at', 'string | null', 'number')],
        }),
      ],
    });
    const message = { direction: 'outbound', status: 'read', text: { body: 'Hello?' }, timestamp: 1795341600 };
    expect(await run((c) => v2[c].conversations.get('conv_1'))).toEqual({
      result: {
        ...conversation,
        messages: [
          { ...message, id: 'msg_7001', to: '4915112345678' },
          { ...message, id: 'msg_7004', direction: 'inbound', status: 'received', from: '4915112345678' },
        ],
      },
      reports: [
        report('GET /conversations/{id}', {
          missing: [
            'data.assigned_to',
            'data.phone',
            ...['messaging_account_id', 'from', 'type', 'content', 'conversation_id', 'created_at', 'to'].map(
              (field) => `data.messages[].${field}`,
            ),
          ],
          unexpected: ['data.messages[].text', 'data.messages[].timestamp', 'data.assignee', 'data.contact'],
          mismatched: [type('data.updated_at', 'string | null', 'number')],
        }),
      ],
    });
  });

  it('Variant 2: campaigns.list and create, webhooks.list and create, account.me', async () => {
    const campaign = {
      id: 'cmp_1',
      messaging_account_id: 1,
      status: 'scheduled',
      title: 'Spring',
      template: { name: 'promo', language: 'en' },
      stats: { sent: 0 },
      scheduled_at: AT_ISO,
    };
    const campaignDrift = (at: string): Drift => ({
      missing: [`${at}name`, `${at}template_name`, `${at}sent_count`, `${at}created_at`],
      unexpected: [`${at}title`, `${at}template`, `${at}stats`],
      mismatched: [type(`${at}segment_id`, 'integer', 'string'), type(`${at}scheduled_at`, 'string | null', 'number')],
    });
    const listed = await run(async (c) => (await v2[c].campaigns.list()).data);
    expect(listed.result).toEqual([campaign]);
    const { unexpected, ...rest } = campaignDrift('data[].');
    expect(listed.reports).toEqual([report('GET /campaigns', { ...rest, unexpected: [...unexpected!, 'links'] })]);
    const body = {
      name: 'Spring',
      messaging_account_id: 1,
      template_name: 'promo',
      segment_id: 2,
      scheduled_at: '2026-11-23T10:00:00Z',
    };
    expect(await run((c) => v2[c].campaigns.create(body))).toEqual({
      result: campaign,
      reports: [report('POST /campaigns', campaignDrift(''))],
    });
    const endpoint = {
      id: 'wh_1',
      url: 'https://hooks.example.com/bizmsg',
      created_at: '2026-11-22T10:00:00Z',
      enabled: true,
    };
    expect(await run(async (c) => (await v2[c].webhooks.list()).data)).toEqual({
      result: [endpoint],
      reports: [
        report('GET /webhooks', {
          missing: ['data[].status'],
          unexpected: ['data[].enabled', 'links'],
          mismatched: [type('data[].events', 'array', 'string')],
        }),
      ],
    });
    const create = {
      url: 'https://hooks.example.com/bizmsg',
      events: ['message.delivered' as const],
      secret: 'whsec_x',
    };
    expect(await run((c) => v2[c].webhooks.create(create))).toEqual({
      result: endpoint,
      reports: [
        report('POST /webhooks', {
          missing: ['status'],
          unexpected: ['enabled'],
          mismatched: [type('events', 'array', 'string')],
        }),
      ],
    });
    expect((await run((c) => v2[c].account.me())).result).toEqual({ account_id: 7, company: { name: 'Acme' } });
  });

  it('logs each (operation, path) once, at warn for missing and mismatched, at info for unknown', async () => {
    const before = driftLines().length;
    await v2.logged.contacts.get(100);
    await v2.logged.contacts.get(100);
    expect(driftLines().length).toBe(before);
    expect(lines).toContain(
      'warn bizmsg: the service differs from what bizmsg expects in GET /contacts/{id}: data.tags is a string, not an array; read in the expected type where nothing is lost, else left out of the result.',
    );
    expect(lines).toContain(
      'info bizmsg: the service differs from what bizmsg expects in GET /contacts/{id}: data.created is a field bizmsg does not know; kept.',
    );
    // Once per client: the Variant 1 client logged it too.
    expect(lines.filter((line) => line.includes('GET /contacts/{id}: data.tags '))).toHaveLength(2);
  });

  it('still fails a call whose answer lacks what the method gives, after reporting it', async () => {
    reports.length = 0;
    const error = await v2.reported.contacts.get(999).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', status: 404 });
    expect(error).not.toBeInstanceOf(ResponseValidationError);
  });
});

/** The drift of a bare body (Variant 2's created record) names its fields from the root, without a dot. */
function atRoot(drift: DriftReport): DriftReport {
  const strip = (path: string) => path.replace(/^\./, '');
  return {
    ...drift,
    missing: drift.missing.map(strip),
    unexpected: drift.unexpected.map(strip),
    mismatched: drift.mismatched.map((m) => ({ ...m, path: strip(m.path) })),
  };
}
