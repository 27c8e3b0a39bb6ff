// "Another service": a stateful server that follows the spec (shared/spec/service-api.md: paths,
// authentication, the Variant 1 envelope, list `meta`, error envelopes, statuses, rate-limit headers,
// `message.delivered`'s four fields) and differs from bizmsg's guesses everywhere the spec is silent,
// the way real chat APIs do: WhatsApp Cloud API (`recipient_id`, epoch seconds as text, `errors[]`,
// `conversation`/`pricing` objects, `text.body`), Twilio (`undelivered`, `queued`), Vonage (nested
// `usage`, ISO times with offsets), numeric ids, `tags` as a comma string, extra envelope fields.
// Its values are distinctive (VALUES), so that a test can show none of them reaches a report or a log.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { signWebhook } from '../../src/webhooks/index.js';
import type { WebhookEventKind } from '../../src/webhooks/index.js';

/** The key the service accepts. */
export const OTHER_KEY = 'sk_other_KEY_9f2c7e';
/** 2026-11-22T10:00:00Z, the time of every record, in seconds since the epoch. */
export const AT = 1_795_341_600;
const PHONE = '+4915112345678';
const DIGITS = '4915112345678';

/** Values the service sends that no drift report or log line may hold (a value is never reported). */
export const VALUES = [
  DIGITS,
  'Ada Lovelace',
  'ada@example.com',
  'vip,beta',
  'msg_7001',
  'msg_7002',
  String(AT),
  'conv_1',
  'cmp_1',
  'wh_1',
  'Acme',
  'hooks.example.com',
  OTHER_KEY,
  'Message undeliverable',
  'Hello?',
];

interface WireContact {
  id: number;
  name: string;
  phone: string;
  email?: string;
  tags: string;
  custom_fields: Array<{ key: string; value: unknown }>;
  created: number;
  updated_at: number;
}

/** A contact as this service sends it: a number id, `tags` as text, `custom_fields` as a list, epoch times. */
function wireContact(id: number, body: Record<string, unknown>): WireContact {
  const fields = (body.custom_fields ?? {}) as Record<string, unknown>;
  return {
    id,
    name: typeof body.name === 'string' ? body.name : '',
    phone: String(body.phone),
    ...(typeof body.email === 'string' ? { email: body.email } : {}),
    tags: ((body.tags as string[] | undefined) ?? []).join(','),
    custom_fields: Object.entries(fields).map(([key, value]) => ({ key, value })),
    created: AT,
    updated_at: AT,
  };
}

/** The other service of one variant: in process (`fetch`) or over HTTP (`listen`). */
export class OtherService {
  readonly variant: 1 | 2;
  readonly #app = new Hono();
  readonly #contacts = new Map<number, WireContact>();
  #nextId = 101;

  constructor(variant: 1 | 2) {
    this.variant = variant;
    this.#contacts.set(
      100,
      wireContact(100, { name: 'Ada Lovelace', phone: PHONE, email: 'ada@example.com', tags: ['vip', 'beta'] }),
    );
    this.#routes();
  }

  /** The service in process, as a client's `fetch` option. */
  readonly fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    Promise.resolve(this.#app.fetch(new Request(input, init)));

  /** The base URL the in-process `fetch` answers. */
  readonly baseUrl = 'https://other.example.test/api/v1';

  /** Serves it on a free loopback port; resolves with its base URL and a close function. */
  async listen(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const started = serve({ fetch: this.#app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
    });
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}/api/v1`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  /** One success answer in the variant's envelope (Variant 1's is shown: `{ success, data }`), with fields of this service's own. */
  #ok(c: Context, data: unknown, { status = 200, meta }: { status?: 200 | 201; meta?: unknown } = {}) {
    if (this.variant === 1)
      return c.json({ success: true, data, ...(meta === undefined ? {} : { meta }), request_id: 'req_1' }, status);
    // Variant 2 bodies are not shown: a list comes enveloped with links, a created record bare, the rest enveloped.
    if (meta !== undefined) return c.json({ data, meta, links: { next: null } }, status);
    return c.json(status === 201 ? data : { data }, status);
  }

  #error(c: Context, status: 401 | 404, code: string, message: string) {
    const error = { code, message, details: {} };
    return c.json(this.variant === 1 ? { success: false, error } : { error }, status);
  }

  #contact(c: Context): WireContact | undefined {
    return this.#contacts.get(Number(c.req.param('id')));
  }

  #routes(): void {
    const app = this.#app.basePath('/api/v1');
    app.use('*', async (c, next) => {
      const key =
        this.variant === 1 ? c.req.header('x-api-key') : c.req.header('authorization')?.replace(/^Bearer /, '');
      c.header('X-RateLimit-Limit', '500');
      c.header('X-RateLimit-Remaining', '499');
      c.header('X-RateLimit-Reset', String(Math.ceil(Date.now() / 60_000) * 60));
      if (key !== OTHER_KEY) return this.#error(c, 401, 'AUTHENTICATION_ERROR', 'Invalid API key.');
      await next();
    });
    app.get('/contacts', (c) => {
      const search = c.req.query('search')?.replace(/\D/g, '');
      const perPage = Number(c.req.query('per_page') ?? 25);
      const page = Number(c.req.query('page') ?? 1);
      const all = [...this.#contacts.values()].filter((contact) => !search || contact.phone.includes(search));
      const data = all.slice((page - 1) * perPage, page * perPage);
      const meta = {
        current_page: page,
        per_page: perPage,
        total: all.length,
        last_page: Math.max(1, Math.ceil(all.length / perPage)),
      };
      return this.#ok(c, data, { meta });
    });
    app.post(this.variant === 1 ? '/contacts/create' : '/contacts', async (c) => {
      const contact = wireContact(this.#nextId++, await c.req.json());
      this.#contacts.set(contact.id, contact);
      return this.#ok(c, contact, { status: this.variant === 1 ? 200 : 201 });
    });
    app.get('/contacts/:id', (c) => {
      const contact = this.#contact(c);
      return contact === undefined
        ? this.#error(c, 404, 'RESOURCE_NOT_FOUND', 'No such contact.')
        : this.#ok(c, contact);
    });
    app.put('/contacts/:id', async (c) => {
      const contact = this.#contact(c);
      if (contact === undefined) return this.#error(c, 404, 'RESOURCE_NOT_FOUND', 'No such contact.');
      const body: Record<string, unknown> = await c.req.json();
      const updated = {
        ...contact,
        ...wireContact(contact.id, { ...contact, tags: contact.tags.split(','), custom_fields: {}, ...body }),
      };
      this.#contacts.set(contact.id, updated);
      return this.#ok(c, updated);
    });
    app.delete('/contacts/:id', (c) => {
      const contact = this.#contact(c);
      if (contact === undefined) return this.#error(c, 404, 'RESOURCE_NOT_FOUND', 'No such contact.');
      this.#contacts.delete(contact.id);
      return c.json({ object: 'contact', id: contact.id, deleted: 'true' });
    });
    const sent = (c: Context) =>
      this.variant === 1
        ? this.#ok(c, { id: 'msg_7001', status: 'accepted', recipient: { phone: DIGITS }, created: AT })
        : c.json({
            message_id: 'msg_7002',
            status: 'queued',
            to: DIGITS,
            timestamp: AT,
            messaging_product: 'whatsapp',
          });
    app.post('/messages/send', sent);
    app.post('/messages/template', sent);
    app.get('/messages/:id/status', (c) =>
      this.#ok(c, { message_id: c.req.param('id'), status: 'delivered', to: Number(DIGITS), delivered_at: AT }),
    );
    app.post('/automations/trigger', (c) => this.#ok(c, { run_id: 'run_9', state: 'queued' }));
    app.get('/account/me', (c) =>
      this.#ok(c, {
        account_id: 7,
        company: { name: 'Acme' },
        plan: { name: 'growth' },
        scopes: 'messages:send contacts:read',
      }),
    );
    const conversation = {
      id: 'conv_1',
      status: 'open',
      assignee: { id: 3, name: 'Sam' },
      contact: { phone: PHONE },
      created_at: '2026-11-22T11:00:00+01:00',
      updated_at: AT,
    };
    app.get('/conversations', (c) =>
      this.#ok(c, [conversation], { meta: { current_page: 1, per_page: 25, total: 1, last_page: 1 } }),
    );
    app.get('/conversations/:id', (c) =>
      this.#ok(c, {
        ...conversation,
        messages: [
          {
            id: 'msg_7001',
            direction: 'outbound',
            status: 'read',
            text: { body: 'Hello?' },
            timestamp: AT,
            to: DIGITS,
          },
          {
            id: 'msg_7004',
            direction: 'inbound',
            status: 'received',
            text: { body: 'Hello?' },
            timestamp: AT,
            from: DIGITS,
          },
        ],
      }),
    );
    const campaign = {
      id: 'cmp_1',
      title: 'Spring',
      template: { name: 'promo', language: 'en' },
      messaging_account_id: 1,
      segment_id: '2',
      scheduled_at: AT,
      status: 'scheduled',
      stats: { sent: 0 },
    };
    app.get('/campaigns', (c) =>
      this.#ok(c, [campaign], { meta: { current_page: 1, per_page: 25, total: 1, last_page: 1 } }),
    );
    app.post('/campaigns', (c) => this.#ok(c, campaign, { status: 201 }));
    const endpoint = {
      id: 'wh_1',
      url: 'https://hooks.example.com/bizmsg',
      events: 'message.delivered,message.read',
      enabled: true,
      created_at: '2026-11-22T10:00:00Z',
    };
    app.get('/webhooks', (c) =>
      this.#ok(c, [endpoint], { meta: { current_page: 1, per_page: 25, total: 1, last_page: 1 } }),
    );
    app.post('/webhooks', (c) => this.#ok(c, endpoint, { status: 201 }));
  }
}

/** The `data` this service sends with each event kind, and the timestamp form of its envelope. */
export function otherEvent(
  kind: WebhookEventKind,
  now = Date.now(),
): { timestamp: unknown; data: Record<string, unknown> } {
  const seconds = Math.floor(now / 1000);
  const iso = new Date(now).toISOString();
  switch (kind) {
    case 'message.received':
      return {
        timestamp: String(seconds),
        data: {
          id: 'msg_9001',
          from: { phone: DIGITS, name: 'Ada Lovelace' },
          to: '15550100000',
          type: 'text',
          text: { body: 'Hello?' },
        },
      };
    case 'message.sent':
      return {
        timestamp: seconds,
        data: { id: 'msg_7001', recipient_id: DIGITS, conversation: { id: 'conv_1', origin: { type: 'service' } } },
      };
    case 'message.delivered':
      return {
        timestamp: iso.replace('Z', '+00:00'),
        data: {
          message_id: 'msg_7001',
          to: DIGITS,
          status: 'delivered',
          delivered_at: new Date(now + 3_600_000).toISOString().replace('Z', '+01:00'),
          pricing: { billable: true, category: 'service' },
        },
      };
    case 'message.read':
      return { timestamp: now, data: { message_id: 'msg_7001', status: 'read', read_at: seconds } };
    case 'message.failed':
      return {
        timestamp: iso.replace(/[-:]/g, '').replace(/\.\d+/, ''),
        data: {
          message_id: 'msg_7003',
          recipient_id: DIGITS,
          status: 'undelivered',
          errors: [{ code: 131026, title: 'Message undeliverable' }],
        },
      };
    case 'conversation.created':
      return {
        timestamp: iso,
        data: { conversation: { id: 'conv_2', expiration_timestamp: seconds }, contact: { phone: PHONE } },
      };
    case 'conversation.closed':
      return { timestamp: iso, data: { conversation_id: 'conv_1', closed_by: 'agent', closed_at: now } };
    case 'contact.created':
      return {
        timestamp: iso.replace('T', ' '),
        data: { contact: { id: 101, name: 'Ada Lovelace', phone: PHONE, tags: 'vip,beta' } },
      };
    case 'contact.updated':
      return {
        timestamp: iso.replace('T', ' '),
        data: { id: 101, name: 'Ada Lovelace', tags: 'vip,beta', changed: { name: ['Ada', 'Ada Lovelace'] } },
      };
    case 'campaign.completed':
      // RFC 2822, as Twilio writes dates: not ISO 8601, so the receivers cannot check its age.
      return {
        timestamp: new Date(now).toUTCString(),
        data: { campaign: { id: 'cmp_1' }, stats: { sent: 3, delivered: 2 }, completed_at: now },
      };
  }
}

/** A signed delivery of `kind` as this service sends it: its envelope carries an id and the account too. */
export function otherDelivery(kind: WebhookEventKind, secret: string, now = Date.now()) {
  const body = JSON.stringify({ event: kind, ...otherEvent(kind, now), id: 'evt_1', account_id: 7 });
  return { body, headers: { 'content-type': 'application/json', 'x-service-signature': signWebhook(body, secret) } };
}
