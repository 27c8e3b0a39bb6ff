// Figure 14: the cost of the drift check, side by side with it off (CPU time per operation). On the receiver path: one signed
// delivery handled in process (verify, read, handlers) with the check and without it. On the client
// path: one answer read (`contacts.get`, and a list of 100 contacts) with the check (an onDrift) and
// without it (no onDrift, logLevel 'off': the check is skipped). Each with an answer or event as
// bizmsg expects it, and with one as another service sends it (guessed fields renamed and retyped).
import { Variant2Client, type ClientOptions } from 'bizmsg';
import { signWebhook } from 'bizmsg/webhooks';
import { compareShape } from '../src/contract/drift.js';
import { shapeOfSchema } from '../src/contract/shape.js';
import { EVENT_SCHEMAS } from '../src/contract/event-fields.js';
import { ContactSchema } from '../src/schemas/contact.js';
import * as z from 'zod/mini';
import { checkHandlerOptions, handleDelivery, type Receiver } from '../src/webhooks/receivers/handle.js';
import { otherEvent } from '../test/helpers/other-service.js';
import { EVENT_DATA } from '../test/helpers/event-samples.js';
import { alternate, ratio, type BenchOptions, type Row } from './lib.js';

const SECRET = 'whsec_bench_drift';

/**
 * CPU microseconds per operation of `op`, run `count` times in a row: CPU time, which a machine
 * busy with other work moves less than wall time (everything here runs in this process).
 */
async function microseconds(count: number, op: () => Promise<unknown>): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < count; i++) await op();
  const { user, system } = process.cpuUsage(started);
  return (user + system) / count;
}

/** A receiver's handling of one delivery, in process (no HTTP), with the drift check or without it. */
function receiverPath(body: string, check: boolean): () => Promise<unknown> {
  const receiver: Receiver = checkHandlerOptions(
    {
      secret: SECRET,
      dedupe: false,
      maxAgeSeconds: false,
      onDrift: () => undefined,
      on: { 'message.read': () => undefined },
    },
    'bench',
  );
  const used = check ? receiver : { ...receiver, drift: undefined as never };
  const bytes = new TextEncoder().encode(body);
  const signature = signWebhook(body, SECRET);
  return () => handleDelivery(bytes, signature, used);
}

/** One client call answered in process by `answer`, with the check (an onDrift) or without (nobody listens). */
function clientPath(answer: unknown, check: boolean, call: (client: Variant2Client) => Promise<unknown>) {
  const text = JSON.stringify(answer);
  const options: ClientOptions = {
    apiKey: 'sk_bench_drift',
    baseUrl: 'https://api.bench.test/api/v1',
    rateLimit: false,
    fetch: () => Promise.resolve(new Response(text, { headers: { 'content-type': 'application/json' } })),
    ...(check ? { onDrift: () => undefined } : { logLevel: 'off' }),
  };
  const client = new Variant2Client(options);
  return () => call(client);
}

const contact = (id: number) => ({
  id,
  name: 'Ada',
  phone: '+4915112345678',
  email: 'ada@example.com',
  tags: ['vip'],
  custom_fields: { plan: 'gold' },
  created_at: '2026-11-22T10:00:00Z',
  updated_at: '2026-11-22T10:00:00Z',
});
/** The same contact as another service sends it: tags as text, custom fields as a list, epoch times. */
const otherContact = (id: number) => ({
  ...contact(id),
  tags: 'vip',
  custom_fields: [{ key: 'plan', value: 'gold' }],
  created_at: 1_795_341_600,
  updated_at: 1_795_341_600,
});
const meta = { current_page: 1, per_page: 100, total: 100, last_page: 1 };

export async function measureDrift({ quick }: BenchOptions): Promise<Row[]> {
  const count = quick ? 300 : 3000;
  const rounds = quick ? 3 : 9;
  const read = (event: unknown) =>
    JSON.stringify({ event: 'message.read', timestamp: new Date().toISOString(), ...(event as object) });
  const ours = read({ data: EVENT_DATA['message.read'] });
  const theirs = read({ data: otherEvent('message.read').data });
  const get = (c: Variant2Client) => c.contacts.get(1);
  const list = (c: Variant2Client) => c.contacts.list();
  const subjects: Record<string, () => Promise<unknown>> = {
    eventOn: receiverPath(ours, true),
    eventOff: receiverPath(ours, false),
    otherEventOn: receiverPath(theirs, true),
    otherEventOff: receiverPath(theirs, false),
    getOn: clientPath({ data: contact(1) }, true, get),
    getOff: clientPath({ data: contact(1) }, false, get),
    otherGetOn: clientPath({ data: otherContact(1) }, true, get),
    otherGetOff: clientPath({ data: otherContact(1) }, false, get),
    listOn: clientPath({ data: Array.from({ length: 100 }, (_, i) => contact(i)), meta }, true, list),
    listOff: clientPath({ data: Array.from({ length: 100 }, (_, i) => contact(i)), meta }, false, list),
  };
  // The check alone, beside zod parsing the same value (what every answer costs anyway).
  const eventSchema = EVENT_SCHEMAS.get('message.read')!;
  const event = JSON.parse(theirs) as unknown;
  const contacts = z.array(ContactSchema);
  const hundred = Array.from({ length: 100 }, (_, i) => contact(i));
  const alone = {
    walkEvent: () => Promise.resolve(compareShape(shapeOfSchema(eventSchema), event)),
    parseEvent: () => Promise.resolve(eventSchema.safeParse(event)),
    walkList: () => Promise.resolve(compareShape(shapeOfSchema(contacts), hundred, 'data')),
    parseList: () => Promise.resolve(contacts.safeParse(hundred)),
  };
  Object.assign(subjects, alone);
  for (const op of Object.values(subjects)) await microseconds(50, op); // warm up
  const us = await alternate(
    rounds,
    Object.fromEntries(Object.entries(subjects).map(([name, op]) => [name, () => microseconds(count, op)])),
  );
  const row = (subject: string, on: number, off: number, target?: Row['target']): Row => ({
    figure: '14',
    subject,
    value: Math.round(on * 10) / 10,
    unit: 'µs',
    baseline: { name: 'the drift check off', value: Math.round(off * 10) / 10, ratio: ratio(on, off) },
    ...(target ? { target } : {}),
  });
  return [
    row('receiver, one message.read as bizmsg expects it', us.eventOn!, us.eventOff!),
    row('receiver, one message.read as another service sends it', us.otherEventOn!, us.otherEventOff!),
    row('client, one contacts.get answer as bizmsg expects it', us.getOn!, us.getOff!),
    row('client, one contacts.get answer as another service sends it', us.otherGetOn!, us.otherGetOff!),
    row('client, one contacts.list answer of 100 contacts', us.listOn!, us.listOff!),
    {
      figure: '14',
      subject: 'the check alone: one message.read event as another service sends it',
      value: Math.round(us.walkEvent! * 100) / 100,
      unit: 'µs',
      baseline: {
        name: 'zod parsing it',
        value: Math.round(us.parseEvent! * 100) / 100,
        ratio: ratio(us.walkEvent!, us.parseEvent!),
      },
    },
    {
      figure: '14',
      subject: 'the check alone: a list of 100 contacts',
      value: Math.round(us.walkList! * 10) / 10,
      unit: 'µs',
      baseline: {
        name: 'zod parsing it',
        value: Math.round(us.parseList! * 10) / 10,
        ratio: ratio(us.walkList!, us.parseList!),
      },
    },
  ];
}
