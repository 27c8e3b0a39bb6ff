// Every event kind as "another service" sends it (test/helpers/other-service.ts: signed, fresh, its
// data in the shapes of real chat APIs) to both receivers, in process and over real HTTP: each is
// acknowledged, its handlers get the data as sent, the tracker follows the messages, and the drift
// report says exactly what differed, never a value.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createStatusTracker,
  createWebhookHandler,
  webhookMiddleware,
  WEBHOOK_EVENT_KINDS,
  type DriftReport,
  type Logger,
  type WebhookEvent,
  type WebhookEventKind,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import { serveFetch } from '../helpers/fetch-adapter.js';
import { otherDelivery, VALUES } from '../helpers/other-service.js';

const SECRET = 'whsec_other_service';
const type = (path: string, expected: string, received: string) => ({ path, expected, received });
const ENVELOPE = ['id', 'account_id'];
/** A time in epoch seconds written as text, as WhatsApp Cloud API sends it. */
const EPOCH_TEXT = { expected: 'string (ISO 8601)', received: 'string (epoch)' };

/** What each kind, as the other service sends it, differs in. */
const DRIFT: Record<WebhookEventKind, Omit<DriftReport, 'source' | 'operation'>> = {
  'message.received': {
    missing: ['data.message_id', 'data.status'],
    unexpected: ['data.id', 'data.type', 'data.text', ...ENVELOPE],
    mismatched: [type('timestamp', EPOCH_TEXT.expected, EPOCH_TEXT.received), type('data.from', 'string', 'object')],
  },
  'message.sent': {
    missing: ['data.message_id', 'data.to', 'data.status'],
    unexpected: ['data.id', 'data.recipient_id', 'data.conversation', ...ENVELOPE],
    mismatched: [type('timestamp', 'string', 'number')],
  },
  'message.delivered': { missing: [], unexpected: ['data.pricing', ...ENVELOPE], mismatched: [] },
  'message.read': {
    missing: ['data.to'],
    unexpected: ENVELOPE,
    mismatched: [type('timestamp', 'string', 'number'), type('data.read_at', 'string', 'number')],
  },
  'message.failed': {
    missing: ['data.to'],
    unexpected: ['data.recipient_id', 'data.errors', ...ENVELOPE],
    mismatched: [],
  },
  'conversation.created': {
    missing: ['data.conversation_id'],
    unexpected: ['data.conversation', 'data.contact', ...ENVELOPE],
    mismatched: [],
  },
  'conversation.closed': { missing: [], unexpected: ['data.closed_by', 'data.closed_at', ...ENVELOPE], mismatched: [] },
  'contact.created': {
    missing: ['data.id', 'data.created_at', 'data.updated_at'],
    unexpected: ['data.contact', ...ENVELOPE],
    mismatched: [],
  },
  'contact.updated': {
    missing: ['data.created_at', 'data.updated_at'],
    unexpected: ENVELOPE,
    mismatched: [type('data.tags', 'array', 'string'), type('data.changed', 'array', 'object')],
  },
  'campaign.completed': {
    missing: ['data.campaign_id'],
    unexpected: ['data.campaign', 'data.stats', ...ENVELOPE],
    mismatched: [type('data.completed_at', 'string', 'number'), type('timestamp', 'date-time', 'string')],
  },
};

/** Delivers a body with its headers to a receiver, and resolves with the answer's status and JSON. */
type Deliver = (body: string, headers: Record<string, string>) => Promise<{ status: number; json: unknown }>;

const servers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of servers) await close();
});

async function overHttp(listener: RequestListener): Promise<Deliver> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return async (body, headers) => {
    const response = await fetch(url, { method: 'POST', body, headers });
    return { status: response.status, json: await response.json() };
  };
}

/** The receivers, each in process and over HTTP. */
const RECEIVERS: Array<[string, (options: WebhookHandlerOptions) => Promise<Deliver>]> = [
  [
    'createWebhookHandler in process',
    (options) => {
      const handle = createWebhookHandler(options);
      return Promise.resolve(async (body, headers) => {
        const response = await handle(
          new Request('https://app.example.test/webhooks', { method: 'POST', body, headers }),
        );
        return { status: response.status, json: await response.json() };
      });
    },
  ],
  ['createWebhookHandler over HTTP', (options) => overHttp(serveFetch(createWebhookHandler(options)))],
  [
    'webhookMiddleware in process (a raw body, as express.raw leaves it)',
    (options) => {
      const middleware = webhookMiddleware(options);
      return Promise.resolve(async (body, headers) => {
        let answer = { status: 0, json: undefined as unknown };
        const req = { headers, readableEnded: true, body: Buffer.from(body), on: () => req, off: () => req };
        await middleware(req, {
          writeHead: (status: number) => void (answer = { ...answer, status }),
          end: (text: string) => void (answer = { ...answer, json: JSON.parse(text) }),
        });
        return answer;
      });
    },
  ],
  [
    'webhookMiddleware over HTTP',
    (options) => {
      const middleware = webhookMiddleware(options);
      return overHttp((req, res) => void middleware(req, res));
    },
  ],
];

describe.each(RECEIVERS)('%s, delivered every kind by another service', (_, receiverOf) => {
  it('acknowledges each, gives the handlers the data as sent, follows the messages, and reports what differs', async () => {
    const reports: DriftReport[] = [];
    const handled: WebhookEvent[] = [];
    const tracker = createStatusTracker();
    const deliver = await receiverOf({
      secret: SECRET,
      tracker,
      onDrift: (report) => void reports.push(report),
      on: Object.fromEntries(
        WEBHOOK_EVENT_KINDS.map((kind) => [kind, (event: WebhookEvent) => void handled.push(event)]),
      ),
    });
    for (const kind of WEBHOOK_EVENT_KINDS) {
      const { body, headers } = otherDelivery(kind, SECRET);
      expect(await deliver(body, headers), kind).toEqual({ status: 200, json: { received: true, event: kind } });
      expect(handled.at(-1)).toEqual(JSON.parse(body));
      expect(reports.at(-1)).toEqual({ source: 'webhook', operation: kind, ...DRIFT[kind] });
    }
    expect(handled).toHaveLength(WEBHOOK_EVENT_KINDS.length);
    expect(await tracker.get('msg_7001')).toMatchObject({ id: 'msg_7001', to: '4915112345678', status: 'read' });
    expect(await tracker.get('msg_7003')).toMatchObject({
      status: 'failed',
      error: { code: '131026', message: 'Message undeliverable' },
    });
    expect(JSON.stringify(reports)).not.toMatch(new RegExp(VALUES.join('|')));
  });

  it('without onDrift, logs each (kind, path) once through its logger, and never a value', async () => {
    const lines: string[] = [];
    const logger: Logger = {
      debug: () => undefined,
      info: (m) => void lines.push(`info ${m}`),
      warn: (m) => void lines.push(`warn ${m}`),
      error: (m) => void lines.push(`error ${m}`),
    };
    const deliver = await receiverOf({ secret: SECRET, logger, dedupe: false });
    for (const round of [1, 2])
      for (const kind of WEBHOOK_EVENT_KINDS) {
        const { body, headers } = otherDelivery(kind, SECRET, Date.now() + round);
        expect((await deliver(body, headers)).status).toBe(200);
      }
    const expected = WEBHOOK_EVENT_KINDS.reduce(
      (count, kind) =>
        count + DRIFT[kind].missing.length + DRIFT[kind].unexpected.length + DRIFT[kind].mismatched.length,
      0,
    );
    expect(lines).toHaveLength(expected);
    expect(lines).toContain(
      'info bizmsg: the service differs from what bizmsg expects in message.sent: data.to is missing; read on without it.',
    );
    expect(lines).toContain(
      'warn bizmsg: the service differs from what bizmsg expects in contact.updated: data.tags is a string, not an array; given to the handlers as sent.',
    );
    expect(lines).toContain(
      'info bizmsg: the service differs from what bizmsg expects in contact.created: data.contact is a field bizmsg does not know; kept.',
    );
    expect(lines.join('\n')).not.toMatch(new RegExp(VALUES.join('|')));
  });
});
