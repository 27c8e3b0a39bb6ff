// The README's ```ts blocks, as a user copies them into a strict project (tsconfig.json here:
// strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes, skipLibCheck: false). Each block is
// the body of a function, so that the file also compiles as CommonJS (no top-level await); the
// changes are only there: a block's imports stand at the top, `export const POST` is returned, and
// `customers()` (the broadcast's own data) is declared below. Keep them in step with README.md.
import express from 'express';
import { writeFile } from 'node:fs/promises';
import {
  ApiError,
  ConnectionError,
  defineTemplates,
  RateLimitExceededError,
  ValidationError,
  Variant1Client,
  Variant2Client,
} from 'bizmsg';
import { bulkOutcomes, fileJournal, sendBulk, toCsv } from 'bizmsg/bulk';
import { connectMock, createMockServer } from 'bizmsg/mock';
import {
  createStatusTracker,
  createWebhookHandler,
  defineWebhookHandlers,
  fileStatusStore,
  MessageFailedError,
  webhookMiddleware,
} from 'bizmsg/webhooks';

/** The broadcast's recipients: the README leaves where they come from to the reader. */
declare function customers(): AsyncIterable<{ phone: string; name: string }>;

/** Quick start, Variant 2. */
export async function quickStartVariant2(): Promise<void> {
  const client = new Variant2Client({ apiKey: process.env.BIZMSG_API_KEY, baseUrl: 'https://api.example.com/api/v1' });

  const { contact } = await client.contacts.upsert({ name: 'Ada', phone: '+49 151 1234 5678', tags: ['vip'] });
  const message = await client.messages.sendText({ to: contact.phone, messaging_account_id: 1, body: 'Hello!' });
  await client.webhooks.create({
    url: 'https://example.com/hooks',
    events: ['message.delivered'],
    secret: 'whsec_...',
  });
  for await (const conversation of client.conversations.list({ status: 'open' })) console.log(conversation.id);
  console.log(message.id);
}

/** Quick start, Variant 1. */
export async function quickStartVariant1(): Promise<void> {
  const client = new Variant1Client(); // from the environment
  const sent = await client.messages.send({ to: '4915112345678', message: 'Your order has shipped.' });
  const { status, delivered_at } = await client.messages.status(sent.id);
  await client.contacts.create({ phone: '4915112345678', name: 'Ada', tags: ['vip'] });
  await client.automations.trigger({ automation_id: 'welcome-flow', to: '4915112345678' });
  console.log(status, delivered_at);
}

/** Errors. */
export async function errors(): Promise<void> {
  const client = new Variant2Client();
  try {
    await client.messages.sendText({ to: '+4915112345678', messaging_account_id: 1, body: '' });
  } catch (error) {
    if (error instanceof ValidationError)
      console.log(error.details); // { 'content.body': ['must not be empty'] }
    else if (error instanceof RateLimitExceededError) console.log(`retry in ${error.retryAfter}s`);
    else if (error instanceof ApiError && error.mayHaveBeenProcessed) console.log('check before resending');
    else if (error instanceof ConnectionError)
      console.log(error.message); // names where it tried to connect
    else throw error;
  }
}

/** Retries, pacing and pagination. */
export async function pagination(): Promise<void> {
  const client = new Variant2Client();
  for await (const contact of client.contacts.list({ tag: 'vip' })) console.log(contact.name);
  const first500 = await client.contacts.list().toArray({ max: 500 });
  const all = await client.contacts.list({ per_page: 100 }, { prefetch: 4 }).toArray(); // 4 pages in flight
  console.log(first500.length, all.length);
}

/** Webhooks. */
export function webhooks() {
  const app = express();
  const options = defineWebhookHandlers({
    secret: process.env.WEBHOOK_SECRET!,
    on: { 'message.delivered': (event) => console.log(event.data.message_id, event.data.delivered_at) },
  });
  app.post('/webhooks', webhookMiddleware(options)); // Express or node:http: mount it before express.json()
  const POST = createWebhookHandler(options); // Next.js route handlers, Hono, Workers, Bun, Deno
  return POST;
}

/** Testing with the mock. */
export async function testingWithTheMock(): Promise<void> {
  const mock = createMockServer({ variant: 2 }); // or compose mock.handlers into your own setupServer
  mock.listen();
  const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });

  const sent = await client.messages.sendText({ to: '+4915112345678', messaging_account_id: 1, body: 'Hi' });
  await mock.clock.advance(1000); // delivered; resolves once the webhook POSTs settled
  console.log(mock.store.messages.get(sent.id)?.status); // 'delivered'
  mock.close();
}

/** A broadcast with per-recipient results. */
export async function broadcast(): Promise<void> {
  const templates = defineTemplates({ order_update: { languages: ['en', 'de'], body: ['name'] } });
  const client = new Variant2Client(); // BIZMSG_API_KEY, BIZMSG_BASE_URL
  const optedOut = new Set(['+4915112345678']); // E.164: `suppress` is given each number so
  // Statuses kept across restarts; your receiver feeds it: webhookMiddleware({ secret, tracker }).
  const tracker = createStatusTracker({ store: fileStatusStore('./statuses') });
  const journal = fileJournal('./order-update.journal'); // survives kill -9 and a power cut; one run at a time
  const run = sendBulk(client, {
    id: 'order-update-2026-11', // the same id and journal again resumes the job
    recipients: customers(), // any iterable or async iterable: a cursor, a CSV stream; never all in memory
    expected: 12_000, // the job's size for progress (an array, Set or Map gives its own)
    journal,
    concurrency: 8,
    suppress: (c, to) => optedOut.has(to) && 'opted out', // true or a reason holds it back
    message: (c) => ({
      to: c.phone,
      messaging_account_id: 1,
      type: 'template',
      content: templates.order_update({ language: 'en', name: c.name }), // { name, language, components }
    }),
  });
  run.on('progress', (p) => console.log(`${p.done}/${p.expected}`)); // rows with an outcome / the job's size
  for await (const r of run.results()) if (r.status !== 'sent') console.log(r.key, r.status, r.error?.code);
  const report = await run; // { id, total, sent, failed, unknown, skipped, suppressed, aborted }

  // Each recipient's fate: the journal joined with the statuses the webhooks brought, as CSV.
  const outcomes = bulkOutcomes(journal, { id: 'order-update-2026-11', tracker }); // sent, delivered, read, failed and why...
  await writeFile('outcomes.csv', await toCsv(outcomes)); // a cell starting with = + - @ is made inert
  console.log(report);
}

/** Tracking a message's status. */
export async function trackingAStatus(): Promise<void> {
  const client = new Variant2Client();
  const tracker = createStatusTracker(); // redisStatusStore(redis) from bizmsg/redis across processes
  const app = express();
  app.post('/webhooks', webhookMiddleware({ secret: process.env.WEBHOOK_SECRET!, tracker }));

  const sent = await client.messages.sendText({ to: '+4915112345678', messaging_account_id: 1, body: 'Hi' });
  await tracker.track(sent);
  try {
    const record = await tracker.waitFor(sent.id, 'delivered', { timeout: 60_000 });
    console.log(record.status, record.deliveredAt); // show it in your UI
  } catch (error) {
    if (error instanceof MessageFailedError) console.log('send another way', error.record.error);
    else throw error;
  }
}

/** Upserting contacts from a list with mixed spellings. */
export async function contactsFromAList(): Promise<void> {
  const client = new Variant2Client();
  const run = client.contacts.sync([
    { name: 'Ada', phone: '+49 151 1234 5678', tags: ['vip'] },
    { name: 'Ada L.', phone: '004915112345678' }, // the same number: merged, the later row wins
    { name: 'Grace', phone: '447700900123', custom_fields: { plan: 'pro' } },
    { name: 'Nobody', phone: '0151 1234 5678' }, // no country code: failed, with why
  ]);
  run.on('progress', (p) => console.log(`${p.created} created, ${p.updated} updated`));
  for await (const r of run.results()) if (r.status === 'failed') console.warn(r.row, r.error?.message);
  console.log(await run); // { total: 4, created: 2, updated: 0, unchanged: 0, failed: 1, merged: 1, aborted: false }
}

/** Typed templates. */
export async function typedTemplates(): Promise<void> {
  const templates = defineTemplates({
    order_update: {
      languages: ['en', 'de'],
      body: ['name', 'order_id'],
      buttons: [{ sub_type: 'url', params: ['tracking'] }],
    },
    welcome: { languages: ['en'] },
  });
  const mock = createMockServer({ variant: 2, templates: templates.catalog });
  mock.listen();
  const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
  await client.messages.sendTemplate({
    to: '+4915112345678',
    messaging_account_id: 1,
    ...templates.order_update({ language: 'de', name: 'Ada', order_id: 'A-17', tracking: 'x9' }),
  });
  mock.close();
}

/** Testing a receiver in another process. */
export async function testingAReceiver(): Promise<void> {
  const control = connectMock('http://127.0.0.1:4010/api/v1'); // what bizmsg-mock printed
  await control.reset();
  await control.registerWebhook({
    url: 'http://127.0.0.1:3000/webhooks',
    events: ['message.received'],
    secret: 'whsec_test',
  });
  await control.receiveMessage({ from: '+4915112345678', body: 'Where is my order?' }); // your app gets message.received
  const [reply] = await control.requests({ method: 'POST', path: '/messages/send' }); // what your app sent back
  const [attempt] = await control.deliveries(); // what the emulator sent, and what your app answered
  console.log(reply?.body, attempt?.status);
}
