// Random reshapings of what the service sends, where bizmsg guessed its shape: fields dropped,
// renamed, retyped, nested, added, under canary values. A receiver never refuses a signed delivery
// for them, a client never fails a call for them (unless what the method promises is gone), and no
// canary value reaches a drift report or a log line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Variant1Client, Variant2Client, type ClientOptions, type DriftReport, type Logger } from '../../src/index.js';
import {
  createStatusTracker,
  createWebhookHandler,
  signWebhook,
  webhookMiddleware,
  WEBHOOK_EVENT_KINDS,
  type WebhookEvent,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import { EVENT_DATA } from '../helpers/event-samples.js';
import { json, scriptedFetch } from '../helpers/scripted-fetch.js';

const RUNS = process.env.BIZMSG_SOAK === 'long' ? 5000 : 200;
const TIMEOUT_MS = process.env.BIZMSG_SOAK === 'long' ? 30 * 60_000 : 60_000;

/** Values no report and no log line may hold: text, numbers, a phone number, an e-mail, a key. */
const CANARIES = ['cnry-7f3a', 'cnry-b91e', 918_273_645, -77.125, '4915112345678', 'ada@cnry.example', 'sk_live_cnry'];
const CANARY_TEXT = CANARIES.map(String);

/** A JSON value made of canaries, of any type. */
const canaryValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...CANARIES),
    fc.constantFrom(true, false, null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('id', 'text', 'body', 'value', 'phone'), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** Keys: field names (reported as they are), and keys that are values (reported as `*`). */
const key = fc.oneof(
  fc.constantFrom('id', 'message_id', 'to', 'status', 'recipient_id', 'timestamp', 'contact', 'wa_id', 'extra_field'),
  fc.constantFrom('4915112345678', '+4915112345678', 'ada@cnry.example', 'cnry-7f3a', '918273645', 'msg_918273645'),
);

/** One way to reshape an object: drop a field, retype it, rename it, nest the whole, add fields. */
type Reshape = (value: Record<string, unknown>) => Record<string, unknown>;
const reshape: fc.Arbitrary<Reshape> = fc.oneof(
  fc.nat().map((i): Reshape => (value) => {
    const keys = Object.keys(value);
    if (keys.length === 0) return value;
    const { [keys[i % keys.length]!]: _, ...rest } = value;
    return rest;
  }),
  fc.tuple(fc.nat(), canaryValue).map(([i, replacement]): Reshape => (value) => {
    const keys = Object.keys(value);
    return keys.length === 0 ? value : { ...value, [keys[i % keys.length]!]: replacement };
  }),
  fc.tuple(fc.nat(), key).map(([i, name]): Reshape => (value) => {
    const keys = Object.keys(value);
    if (keys.length === 0) return value;
    const { [keys[i % keys.length]!]: moved, ...rest } = value;
    return { ...rest, [name]: moved };
  }),
  key.map((name): Reshape => (value) => ({ [name]: value })),
  fc
    .dictionary(key, canaryValue, { minKeys: 1, maxKeys: 3 })
    .map((extra): Reshape => (value) => ({ ...value, ...extra })),
);
const reshapes = fc.array(reshape, { minLength: 1, maxLength: 5 });
const apply = (value: Record<string, unknown>, steps: Reshape[]) => steps.reduce((v, step) => step(v), value);

/** The timestamp of a fresh event in any form a service writes one, or one that cannot be read. */
const timestamp = fc.oneof(
  fc.constant(() => new Date().toISOString()),
  fc.constant(() => new Date().toISOString().replace('Z', '+00:00')),
  fc.constant(() => Math.floor(Date.now() / 1000)),
  fc.constant(() => Date.now()),
  fc.constant(() => String(Math.floor(Date.now() / 1000))),
  // A number is a time since the epoch, and the canary number is in 1999: a replay, rightly refused as stale.
  canaryValue.filter((value) => typeof value !== 'number').map((value) => () => value),
);

/** Lines and reports, to search for canaries. */
function recorder() {
  const said: string[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: (m) => void said.push(m),
    warn: (m) => void said.push(m),
    error: (m, ...context) => void said.push(m, ...context.map(String)),
  };
  const onDrift = (report: DriftReport) => void said.push(JSON.stringify(report));
  const noCanary = () => {
    const text = said.join('\n');
    for (const canary of CANARY_TEXT) expect(text).not.toContain(canary);
  };
  return { said, logger, onDrift, noCanary };
}

/** Both receivers, in process: each answers a body and its signature with a status. */
function receivers(options: WebhookHandlerOptions) {
  const handle = createWebhookHandler(options);
  const middleware = webhookMiddleware(options);
  return [
    async (body: string, signature: string) =>
      (
        await handle(
          new Request('https://app.test/hooks', {
            method: 'POST',
            body,
            headers: { 'x-service-signature': signature },
          }),
        )
      ).status,
    async (body: string, signature: string) => {
      let status = 0;
      const req = {
        headers: { 'x-service-signature': signature },
        readableEnded: true,
        body: Buffer.from(body),
        on: () => req,
        off: () => req,
      };
      await middleware(req, { writeHead: (code: number) => void (status = code), end: () => undefined });
      return status;
    },
  ];
}

describe('random reshapings of what the service sends', () => {
  it(
    'never make a receiver refuse a signed delivery: the handlers get the data as sent, and no value is reported or logged',
    async () => {
      const secret = 'whsec_cnry_fuzz';
      const logged = recorder();
      const reported = recorder();
      const handled: WebhookEvent[] = [];
      const on = Object.fromEntries(
        WEBHOOK_EVENT_KINDS.map((kind) => [kind, (e: WebhookEvent) => void handled.push(e)]),
      );
      const base = { secret, on, dedupe: false as const, tracker: createStatusTracker() };
      const all = [
        ...receivers({ ...base, logger: logged.logger }),
        ...receivers({ ...base, logger: reported.logger, onDrift: reported.onDrift }),
      ];
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...WEBHOOK_EVENT_KINDS),
          reshapes,
          timestamp,
          fc.dictionary(key, canaryValue, { maxKeys: 2 }),
          async (kind, steps, when, envelope) => {
            const data = apply({ ...EVENT_DATA[kind] }, steps);
            const body = JSON.stringify({ ...envelope, event: kind, timestamp: when(), data });
            const signature = signWebhook(body, secret);
            for (const receive of all) {
              handled.length = 0;
              expect(await receive(body, signature), body).toBe(200);
              expect(
                handled.map((event) => event.data),
                body,
              ).toEqual([JSON.parse(body).data]);
            }
          },
        ),
        { numRuns: RUNS },
      );
      logged.noCanary();
      reported.noCanary();
      expect(reported.said.length).toBeGreaterThan(0);
    },
    TIMEOUT_MS,
  );

  const contact = {
    id: 7,
    name: 'Ada',
    phone: '+4915112345678',
    tags: ['vip'],
    custom_fields: {},
    created_at: 'x',
    updated_at: 'y',
  };
  const message = {
    message_id: 'msg_1',
    status: 'delivered',
    to: '4915112345678',
    delivered_at: '2026-11-22T10:00:00Z',
  };
  /** Calls whose answers are reshaped, with the fields the method promises (kept by the reshaping). */
  const CALLS: Array<{
    name: string;
    variant: 1 | 2;
    answer: Record<string, unknown>;
    promised: Record<string, unknown>;
    call: (client: Variant1Client & Variant2Client) => Promise<unknown>;
  }> = [
    {
      name: 'contacts.get',
      variant: 1,
      answer: contact,
      promised: { id: 7, phone: '+4915112345678' },
      call: (c) => c.contacts.get(7),
    },
    {
      name: 'messages.status',
      variant: 1,
      answer: message,
      promised: { message_id: 'msg_1' },
      call: (c) => c.messages.status('msg_1'),
    },
    {
      name: 'account.me',
      variant: 2,
      answer: { id: 1, name: 'Acme', email: 'ops@acme.test', plan: 'pro', scopes: ['account:read'] },
      promised: {},
      call: (c) => c.account.me(),
    },
    {
      name: 'campaigns.create',
      variant: 2,
      answer: { id: 'cmp_1', name: 'Spring', status: 'scheduled', sent_count: 0, scheduled_at: '2026-11-23T10:00:00Z' },
      promised: { id: 'cmp_1' },
      call: (c) =>
        c.campaigns.create({
          name: 'S',
          messaging_account_id: 1,
          template_name: 't',
          segment_id: 1,
          scheduled_at: '2026-11-23T10:00:00Z',
        }),
    },
    {
      name: 'conversations.get',
      variant: 2,
      answer: { id: 3, status: 'open', phone: '4915112345678', messages: [{ id: 'msg_1', status: 'read' }] },
      promised: { id: 3, status: 'open', messages: [{ id: 'msg_1' }] },
      call: (c) => c.conversations.get(3),
    },
  ];

  it(
    'never fail a call while what the method promises is there, and no value is reported or logged',
    async () => {
      const logged = recorder();
      const reported = recorder();
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...CALLS), reshapes, fc.boolean(), async (spec, steps, enveloped) => {
          const payload = { ...apply(spec.answer, steps), ...spec.promised };
          const body = spec.variant === 1 ? { success: true, data: payload } : enveloped ? { data: payload } : payload;
          const { fetch } = scriptedFetch(json(200, body));
          const Client = spec.variant === 1 ? Variant1Client : Variant2Client;
          const options: ClientOptions = {
            apiKey: 'sk_live_cnry',
            baseUrl: 'https://api.test/api/v1',
            fetch,
            rateLimit: false,
          };
          for (const more of [
            { logger: logged.logger, logLevel: 'info' as const },
            { logger: reported.logger, onDrift: reported.onDrift },
          ]) {
            const client = new Client({ ...options, ...more }) as Variant1Client & Variant2Client;
            await expect(spec.call(client), JSON.stringify(body)).resolves.toMatchObject(
              // A message's id is under `id` or `message_id` (a reshaping may add an `id`): it is there either way.
              spec.name === 'messages.status' ? { id: expect.any(String) as unknown } : spec.promised,
            );
          }
        }),
        { numRuns: RUNS },
      );
      logged.noCanary();
      reported.noCanary();
    },
    TIMEOUT_MS,
  );
});
