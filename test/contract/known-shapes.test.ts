// Where real services are known to differ from bizmsg's guesses (design.md), in shapes taken from
// them: WhatsApp Cloud API's send answer, Twilio's `sid`, Stripe's and Intercom's wrapped lists,
// tags as objects, epoch times in numbers and strings. Each is read as bizmsg's own and reported;
// none fails a call, and a sync against them writes nothing for an unchanged list.
import { Hono, type Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { Variant1Client, Variant2Client, type DriftReport } from '../../src/index.js';

const KEY = 'sk_known_shapes_1';
const BASE = 'https://shapes.example.test/api/v1';
/** 2026-11-22T10:00:00Z in seconds since the epoch. */
const AT = 1_795_341_600;
const ISO = '2026-11-22T10:00:00.000Z';

/** A send answer of WhatsApp Cloud API: the id only in `messages[0].id`. */
const WHATSAPP_SENT = {
  messaging_product: 'whatsapp',
  contacts: [{ input: '+4915112345678', wa_id: '4915112345678' }],
  messages: [{ id: 'wamid.HBgNNDkxNTExMjM0NTY3OBUCABEYEjQ2' }],
};
/** A send answer of Twilio: the id in `sid`, times as text of its own. */
const TWILIO_SENT = { sid: 'SM0123456789abcdef0123456789abcdef', status: 'queued', date_created: 'Sun, 22 Nov 2026' };

/** A text message to send, in each variant's words. */
const SEND = {
  1: { to: '+4915112345678', message: 'Hi' },
  2: { to: '+4915112345678', messaging_account_id: 1, type: 'text', content: { body: 'Hi' } },
} as const;

/** A list answer: its items, enveloped with their `meta` (one page). */
class Listed {
  constructor(readonly items: unknown[]) {}
}

/** A service of one variant answering `answers` by "METHOD path", in that variant's envelope. */
function service(variant: 1 | 2, answers: Record<string, (c: Context) => unknown>) {
  const app = new Hono().basePath('/api/v1');
  for (const [route, answer] of Object.entries(answers)) {
    const [method, path] = route.split(' ') as [string, string];
    app.on(method, path, async (c) => {
      const answered = await answer(c);
      const body =
        answered instanceof Listed
          ? {
              data: answered.items,
              meta: { current_page: 1, per_page: 100, total: answered.items.length, last_page: 1 },
            }
          : { data: answered };
      return c.json(variant === 1 ? { success: true, ...body } : body);
    });
  }
  const options = {
    apiKey: KEY,
    baseUrl: BASE,
    rateLimit: false as const,
    fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise.resolve(app.fetch(new Request(input, init))),
  };
  return options;
}

describe.each([1, 2] as const)('Variant %i against the shapes real services send', (variant) => {
  const client = (answers: Record<string, (c: Context) => unknown>, reports: DriftReport[]) => {
    const options = { ...service(variant, answers), onDrift: (report: DriftReport) => void reports.push(report) };
    return variant === 1 ? new Variant1Client(options) : new Variant2Client(options);
  };

  /** messages.send of a text, answered by `answers`. */
  const send = (answers: Record<string, (c: Context) => unknown>, reports: DriftReport[]) => {
    const options = { ...service(variant, answers), onDrift: (report: DriftReport) => void reports.push(report) };
    return variant === 1
      ? new Variant1Client(options).messages.send(SEND[1])
      : new Variant2Client(options).messages.send(SEND[2]);
  };

  it('messages.send gives the id of a WhatsApp answer (messages[0].id) and of a Twilio one (sid)', async () => {
    for (const [answer, id] of [
      [WHATSAPP_SENT, WHATSAPP_SENT.messages[0]!.id],
      [TWILIO_SENT, TWILIO_SENT.sid],
    ] as const) {
      const reports: DriftReport[] = [];
      const sent = await send({ 'POST /messages/send': () => answer }, reports);
      expect(sent.id).toBe(id);
      expect(sent).toMatchObject(answer);
      // The fields that held it are reported as fields bizmsg does not know.
      expect(reports).toHaveLength(1);
      expect(reports[0]!.unexpected).toEqual(
        Object.keys(answer)
          .filter((key) => key !== 'status')
          .map((key) => `data.${key}`),
      );
    }
  });

  it('a send answer with no id anywhere still fails, saying it may have been processed', async () => {
    const reports: DriftReport[] = [];
    const sending = send({ 'POST /messages/send': () => ({ messages: [{}], sid: null }) }, reports);
    await expect(sending).rejects.toMatchObject({ name: 'ResponseValidationError', mayHaveBeenProcessed: true });
  });

  it('contacts.get reads tags as objects and epoch times (seconds in a string, milliseconds in a number)', async () => {
    const reports: DriftReport[] = [];
    const contact = await client(
      {
        'GET /contacts/:id': () => ({
          id: 7,
          name: 'Ada',
          phone: '+4915112345678',
          tags: [
            { id: 1, name: 'vip' },
            { id: 2, name: 'beta' },
          ],
          created_at: String(AT),
          updated_at: AT * 1000,
        }),
      },
      reports,
    ).contacts.get(7);
    expect(contact).toEqual({
      id: 7,
      name: 'Ada',
      phone: '+4915112345678',
      tags: ['vip', 'beta'],
      created_at: ISO,
      updated_at: ISO,
    });
    expect(reports.map((report) => report.mismatched)).toEqual([
      [
        { path: 'data.tags[]', expected: 'string', received: 'object' },
        { path: 'data.created_at', expected: 'string (ISO 8601)', received: 'string (epoch)' },
        { path: 'data.updated_at', expected: 'string | null', received: 'number' },
      ],
    ]);
  });

  it('contacts.sync of an unchanged list writes nothing when tags come as objects or as text, and still writes a change', async () => {
    for (const tags of [[{ id: 1, name: 'vip' }], 'vip']) {
      const writes: string[] = [];
      const stored = { id: 7, name: 'Ada', phone: '+4915112345678', tags, created_at: AT, updated_at: AT };
      const lacking = { id: 8, name: 'Bob', phone: '+4915112345679' };
      const synced = client(
        {
          'GET /contacts': () => new Listed([stored, lacking]),
          'PUT /contacts/:id': (c) => {
            writes.push(`PUT ${c.req.param('id')}`);
            return stored;
          },
          [variant === 1 ? 'POST /contacts/create' : 'POST /contacts']: () => {
            writes.push('POST');
            return stored;
          },
        },
        [],
      ).contacts;
      const rows = [
        { phone: '+49 151 12345678', name: 'Ada', tags: ['vip'] },
        // A field the answer did not hold is empty: Bob's tags are written.
        { phone: '+49 151 12345679', name: 'Bob', tags: ['new'] },
      ];
      for (let run = 0; run < 2; run++) {
        const report = await synced.sync(rows);
        expect(report).toMatchObject({ total: 2, created: 0, updated: 1, unchanged: 1, failed: 0 });
      }
      expect(writes).toEqual(['PUT 8', 'PUT 8']);
    }
  });
});

describe('Variant 2 conversations.get', () => {
  it('reads messages that come wrapped ({ object: "list", data }, { data }, { items }), and reports it', async () => {
    const messages = [{ id: 'msg_1', status: 'read', created_at: AT }];
    for (const wrapped of [
      { object: 'list', data: messages, has_more: false },
      { data: messages },
      { items: messages },
    ]) {
      const reports: DriftReport[] = [];
      const conversation = await new Variant2Client({
        ...service(2, { 'GET /conversations/:id': () => ({ id: 'conv_1', status: 'open', messages: wrapped }) }),
        onDrift: (report) => void reports.push(report),
      }).conversations.get('conv_1');
      expect(conversation.messages).toEqual([{ id: 'msg_1', status: 'read', created_at: ISO }]);
      expect(reports[0]!.mismatched).toEqual([
        { path: 'data.messages', expected: 'array', received: 'object' },
        { path: 'data.messages[].created_at', expected: 'string | null', received: 'number' },
      ]);
    }
  });
});
