import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineTemplates, normalizePhone, Variant1Client, Variant2Client } from '../../src/index.js';
import { bulkOutcomes, memoryJournal, readCsv, sendBulk, toCsv } from '../../src/bulk/index.js';
import { connectMock, controlApiDocument, createMockServer, openApiDocument } from '../../src/mock/index.js';
import {
  createStatusTracker,
  createWebhookHandler,
  fileStatusStore,
  memoryDedupeStore,
  memoryStatusStore,
  parseWebhook,
  signWebhook,
  type WebhookEvent,
} from '../../src/webhooks/index.js';
import { EVENT_DATA } from '../helpers/event-samples.js';
import { useMocks } from '../helpers/mock-api.js';

// Issue 42: under `exactOptionalPropertyTypes` every optional input accepts `T | undefined`, so an
// explicit `undefined` must mean what leaving the property out means: the default, never a refusal,
// a NaN or a merged-over value. Each option reader is called here through the public API.

const v1 = createMockServer({ variant: 1, baseUrl: 'https://v1.undefined.test/api/v1' });
const v2 = createMockServer({ variant: 2, baseUrl: 'https://v2.undefined.test/api/v1' });
useMocks(v1, v2);

const SECRET = 'whsec_undefined';
const NONE = undefined;

/** Every option of both clients, left undefined. */
const CLIENT_OPTIONS = {
  timeout: NONE,
  maxRetries: NONE,
  maxRetryWait: NONE,
  rateLimit: NONE,
  rateLimitStore: NONE,
  fetch: NONE,
  headers: NONE,
  hooks: { beforeRequest: NONE, afterResponse: NONE, beforeRetry: NONE, beforeError: NONE },
  onWait: NONE,
  logLevel: NONE,
  logger: NONE,
  onDrift: NONE,
  phoneFormat: NONE,
};
const REQUEST_OPTIONS = { signal: NONE, timeout: NONE, maxRetries: NONE, headers: NONE };

describe('an explicit undefined means the default', () => {
  it('in the client options, request options and list params', async () => {
    const client = new Variant2Client({ apiKey: v2.apiKey, baseUrl: v2.baseUrl, ...CLIENT_OPTIONS });
    const sent = await client.messages.sendText(
      { to: '+4915112345678', messaging_account_id: 1, body: 'Hi' },
      REQUEST_OPTIONS,
    );
    expect(sent.to).toBe('+4915112345678');
    await client.contacts.create({
      name: 'Ada',
      phone: '+4915112345678',
      email: NONE,
      tags: NONE,
      custom_fields: NONE,
    });
    const contacts = await client.contacts
      .list({ page: NONE, per_page: NONE, search: NONE, tag: NONE }, { ...REQUEST_OPTIONS, prefetch: NONE })
      .toArray();
    expect(contacts.map((contact) => contact.name)).toEqual(['Ada']);
    await client.conversations.list({ status: NONE, assigned_to: NONE, page: NONE, per_page: NONE }, REQUEST_OPTIONS);
    // No `undefined` reached the wire.
    const paths = v2.requests({ method: 'GET' }).map((request) => request.path);
    expect(paths.join(' ')).not.toContain('undefined');

    const classic = new Variant1Client({ apiKey: v1.apiKey, baseUrl: v1.baseUrl, ...CLIENT_OPTIONS });
    const page = await classic.contacts.list({ page: NONE, per_page: NONE });
    expect(page.data).toEqual([]);
  });

  it('in contacts.sync rows and options', async () => {
    const client = new Variant2Client({ apiKey: v2.apiKey, baseUrl: v2.baseUrl });
    const report = await client.contacts.sync(
      [{ name: 'Ada', phone: '+4915112345678', email: NONE, tags: NONE, custom_fields: NONE }],
      { concurrency: NONE, signal: NONE },
    );
    expect(report).toMatchObject({ total: 1, created: 1, failed: 0 });
  });

  it('in contacts.sync rows, as null: a contact read back is a row that changes nothing', async () => {
    const client = new Variant2Client({ apiKey: v2.apiKey, baseUrl: v2.baseUrl });
    const created = await client.contacts.create({ name: 'Ada', phone: '+4915112345678' });
    const contact = { ...(await client.contacts.get(created.id)), name: null, email: null };
    expect(await client.contacts.sync([contact])).toMatchObject({ total: 1, unchanged: 1, failed: 0 });
    expect((await client.contacts.get(created.id)).name).toBe('Ada');
  });

  it('in normalizePhone and defineTemplates', () => {
    expect(normalizePhone('0049 151 1234 5678', { format: NONE })).toBe('+4915112345678');
    const templates = defineTemplates({ welcome: { languages: ['en'], header: NONE, body: NONE, buttons: NONE } });
    expect(templates.welcome({ language: 'en' })).toMatchObject({ name: 'welcome', language: 'en' });
  });

  it('in the receivers, parseWebhook and signWebhook', async () => {
    const event = {
      event: 'message.delivered',
      timestamp: new Date().toISOString(),
      data: EVENT_DATA['message.delivered'],
    };
    const raw = JSON.stringify(event);
    expect(signWebhook(raw, SECRET, { prefix: NONE })).toBe(signWebhook(raw, SECRET));
    const signature = signWebhook(raw, SECRET);
    expect(parseWebhook(raw, signature, SECRET, { maxAgeSeconds: NONE, now: NONE, onDrift: NONE }).event).toBe(
      'message.delivered',
    );

    const seen: WebhookEvent[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      maxAgeSeconds: NONE,
      // A kind given as undefined has no handler, as a kind left out.
      on: { 'message.delivered': (delivered) => void seen.push(delivered), 'message.read': NONE },
      onEvent: NONE,
      onError: NONE,
      maxBodyBytes: NONE,
      dedupe: NONE,
      tracker: NONE,
      dedupeKey: NONE,
      onDrift: NONE,
      logger: NONE,
    });
    const answer = await handler(
      new Request('https://app.test/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-signature': signature },
        body: raw,
      }),
    );
    expect(answer.status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it('in the tracker, its stores and what it tracks', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'bizmsg-undefined-'));
    try {
      for (const store of [
        NONE,
        memoryStatusStore({ ttl: NONE, max: NONE }),
        fileStatusStore(join(folder, 'statuses'), { ttl: NONE }),
      ]) {
        const tracker = createStatusTracker({ store });
        // What a send resolves with when the service left fields out, and the same with them undefined.
        const sent = { id: 'm1', status: 'delivered', delivered_at: '2026-11-21T10:00:00Z' };
        const left = await createStatusTracker().track(sent);
        const record = await tracker.track({ ...sent, to: NONE, created_at: NONE, read_at: NONE, failed_at: NONE });
        expect(record).toEqual(left);
        expect((await tracker.waitFor('m1', 'delivered', { timeout: NONE, signal: NONE })).status).toBe('delivered');
        await tracker.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    const dedupe = memoryDedupeStore({ ttl: NONE, claimTtl: NONE, logger: NONE, max: NONE });
    expect(await dedupe.claim('evt', 'one')).toBe('claimed');
  });

  it('in the mock options, seed, plans, filters and documents', () => {
    const mock = createMockServer({
      variant: NONE,
      baseUrl: NONE,
      keys: [{ key: 'k_extra', scopes: NONE, plan: NONE, revoked: NONE }],
      // An override given as undefined keeps the named plan's own value (the starter plan's rateLimit was refused).
      plans: {
        starter: { rateLimit: NONE, window: NONE, maxContacts: NONE, maxWebhookEndpoints: NONE, maxMessages: NONE },
      },
      templates: NONE,
      seed: {
        random: NONE,
        contacts: [{ name: 'Ada', phone: '+4915112345678', email: NONE, tags: NONE, custom_fields: NONE }],
        webhooks: NONE,
      },
      webhookTimeout: NONE,
      history: { requests: NONE, deliveries: NONE },
    });
    const plain = createMockServer();
    expect(mock.variant).toBe(plain.variant);
    expect(mock.baseUrl).toBe(plain.baseUrl);
    expect(mock.store.contacts.size).toBe(1);
    expect(mock.requests({ method: NONE, path: NONE, status: NONE, after: NONE, before: NONE, limit: NONE })).toEqual(
      [],
    );
    mock.inject({
      route: NONE,
      status: 500,
      code: NONE,
      networkError: NONE,
      delay: NONE,
      times: NONE,
      rate: NONE,
    });
    expect(mock.faults()).toHaveLength(1);
    expect(openApiDocument(2, { serverUrl: NONE })).toEqual(openApiDocument(2));
    expect(controlApiDocument({ serverUrl: NONE })).toEqual(controlApiDocument());
    expect(connectMock(mock.baseUrl, { controlToken: NONE, fetch: NONE })).toBeDefined();
  });

  it('in sendBulk, readCsv, toCsv and bulkOutcomes', async () => {
    const client = new Variant2Client({ apiKey: v2.apiKey, baseUrl: v2.baseUrl });
    const journal = memoryJournal();
    const report = await sendBulk(client, {
      id: 'job',
      recipients: ['+4915112345678'],
      message: (to: string) => ({ to, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } }),
      key: NONE,
      journal,
      concurrency: NONE,
      signal: NONE,
      resendUnknown: NONE,
      suppress: NONE,
      expected: NONE,
    });
    expect(report).toMatchObject({ total: 1, sent: 1 });
    const rows = [];
    for await (const row of readCsv('phone\n+4915112345678\n', { limit: NONE })) rows.push(row);
    expect(rows).toHaveLength(1);
    expect(toCsv([{ a: 1 }], { columns: NONE })).toBe(toCsv([{ a: 1 }]));
    const outcomes = [];
    for await (const outcome of bulkOutcomes(journal, { id: 'job', tracker: NONE })) outcomes.push(outcome);
    expect(outcomes).toHaveLength(1);
  });
});
