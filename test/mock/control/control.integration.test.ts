import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  connectMock,
  InvalidArgumentError,
  LIFECYCLE_MS,
  MockService,
  startMockHttpServer,
  WEBHOOK_RETRY_DELAYS_MS,
  type DeliveryAttempt,
  type MockControl,
  type MockHttpServer,
} from '../../../src/mock/index.js';
import {
  createStatusTracker,
  MessageFailedError,
  WEBHOOK_EVENT_KINDS,
  verifyWebhook,
  type WebhookEvent,
} from '../../../src/webhooks/index.js';
import { startTestServer } from '../../helpers/http-server.js';

const SECRET = 'whsec_control_test';
const CUSTOMER = '+4915112345678';

let server: MockHttpServer;
let receiver: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startMockHttpServer({
    variant: 1,
    webhookTimeout: 500,
    seed: { contacts: [{ name: 'Ada', phone: CUSTOMER, tags: ['vip'] }] },
  });
  receiver = await startTestServer();
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

/** A call to the service itself, as an app under test makes it (Variant 1: X-API-Key). */
async function api(method: string, path: string, body?: unknown, key = server.apiKey) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** The app sends a message; resolves with its id. */
async function send(): Promise<string> {
  const sent = await api('POST', '/messages/send', { to: CUSTOMER, message: 'Your order shipped' });
  return sent.body.data.message_id as string;
}

/** The events the receiver got so far, in the order they arrived. */
const events = () => receiver.received.map((r) => JSON.parse(r.body) as WebhookEvent & { data: Record<string, any> });

const ORDER = 'sent < delivered < read < failed';

/**
 * Resolves once a message sent now, on a mock of its own whose clock runs, is delivered: then as
 * much real time has passed as a running clock takes to deliver a message sent before this call.
 */
async function aDeliveryOfRealTime(): Promise<void> {
  const witness = new MockService({ variant: 1 });
  const sent = await witness.handle(
    new Request(`${witness.baseUrl}/messages/send`, {
      method: 'POST',
      headers: { 'x-api-key': witness.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ to: CUSTOMER, message: 'witness' }),
    }),
  );
  const id = ((await sent.json()) as { data: { message_id: string } }).data.message_id;
  await vi.waitFor(() => expect(witness.store.messages.get(id)?.status).toBe('delivered'), {
    timeout: 15_000,
    interval: 20,
  });
  witness.pause();
}

// The same suite, through the same MockControl, on the mock in this process and over HTTP: they read alike.
describe.each([
  ['in process', () => connectMock(server.mock)],
  ['over HTTP', () => connectMock(server.baseUrl)],
])('MockControl %s', (face, connect) => {
  let control: MockControl;

  beforeEach(async () => {
    control = connect();
    await control.reset();
    receiver.received.length = 0;
    receiver.handle((_, res) => res.end('ok'));
  });

  const hook = (path = '/hook', events: string[] = [...WEBHOOK_EVENT_KINDS]) =>
    control.registerWebhook({ url: `${receiver.origin}${path}`, events: events as never, secret: SECRET });

  it('says whether the mock runs, its variant, base URL and virtual time', async () => {
    const health = await control.health();
    expect(health).toEqual({ ok: true, variant: 1, baseUrl: server.baseUrl, now: expect.any(String) });
    expect(Math.abs(Date.parse(health.now) - Date.now())).toBeLessThan(5000);
  });

  it('registers a webhook endpoint in Variant 1 (whose API has none), and delivers signed events to it', async () => {
    const endpoint = await hook('/hook', ['message.sent']);
    expect(endpoint).toEqual({
      id: 1,
      url: `${receiver.origin}/hook`,
      events: ['message.sent'],
      secret: SECRET,
      status: 'active',
      created_at: expect.any(String),
    });
    const sent = await api('POST', '/messages/send', { to: CUSTOMER, message: 'Your order shipped' });
    expect(sent.status).toBe(200);
    await server.mock.clock.settled();
    expect(receiver.received).toHaveLength(1);
    const [received] = receiver.received;
    expect(verifyWebhook(received!.body, received!.headers['x-service-signature'], SECRET)).toBe(true);
    expect(JSON.parse(received!.body)).toEqual({
      event: 'message.sent',
      timestamp: expect.any(String),
      data: { message_id: 'msg_1', to: '4915112345678', status: 'sent', conversation_id: 1 },
    });
    const [attempt] = await control.deliveries();
    expect(attempt).toEqual({
      id: 1,
      endpointId: 1,
      url: `${receiver.origin}/hook`,
      event: 'message.sent',
      attempt: 1,
      status: 200,
      ok: true,
      at: expect.any(Number),
      durationMs: expect.any(Number),
      request: {
        headers: {
          'content-type': 'application/json',
          'user-agent': 'bizmsg-mock',
          'x-bizmsg-mock-delivery': '1',
          'x-service-signature': received!.headers['x-service-signature'],
        },
        body: received!.body,
      },
      response: { status: 200, headers: expect.objectContaining({ 'content-length': '2' }), body: 'ok' },
      nextRetryAt: null,
      redeliveryOf: null,
      error: null,
    });
  });

  it('takes an inbound customer message, with its conversation and events', async () => {
    await hook('/hook', ['message.received', 'conversation.created']);
    const message = await control.receiveMessage({ from: CUSTOMER, body: 'Where is my parcel?' });
    expect(message).toEqual({
      id: 'msg_1',
      direction: 'inbound',
      from: CUSTOMER,
      to: '+15550100000',
      type: 'text',
      content: { body: 'Where is my parcel?' },
      status: 'received',
      conversation_id: 1,
      messaging_account_id: 1,
      created_at: expect.any(String),
    });
    await server.mock.clock.settled();
    // The two events are delivered at once: they may arrive in either order.
    const received = receiver.received.map((r) => JSON.parse(r.body) as { event: string; data: unknown });
    expect(received.sort((a, b) => a.event.localeCompare(b.event))).toEqual([
      {
        event: 'conversation.created',
        timestamp: expect.any(String),
        data: { conversation_id: 1, phone: '4915112345678' },
      },
      {
        event: 'message.received',
        timestamp: expect.any(String),
        data: {
          message_id: 'msg_1',
          to: '15550100000',
          status: 'received',
          conversation_id: 1,
          from: '4915112345678',
          body: 'Where is my parcel?',
        },
      },
    ]);
    const closed = await control.updateConversation(1, { status: 'closed', assigned_to: 'agent-7' });
    expect([closed.status, closed.assigned_to]).toEqual(['closed', 'agent-7']);
  });

  it('runs the whole retry schedule on the virtual clock, then disables the endpoint and e-mails the owner', async () => {
    receiver.handle((_, res) => {
      res.writeHead(500);
      res.end('down');
    });
    const endpoint = await hook('/hook', ['message.delivered']);
    const [first] = await control.emit('message.delivered');
    expect([first!.status, first!.ok, first!.attempt, first!.nextRetryAt! - first!.at]).toEqual([
      500,
      false,
      1,
      60_000,
    ]);
    expect((await control.state()).pending).toEqual([
      { at: first!.nextRetryAt, what: `attempt 2 (retry 1) of message.delivered to ${receiver.origin}/hook` },
    ]);
    for (const delay of WEBHOOK_RETRY_DELAYS_MS) await control.clock.advance(delay);
    const attempts = await control.deliveries();
    expect(attempts.map((a) => [a.attempt, a.status, a.ok])).toEqual([1, 2, 3, 4, 5, 6].map((n) => [n, 500, false]));
    expect(attempts.slice(1).map((a, i) => a.at - attempts[i]!.at)).toEqual([...WEBHOOK_RETRY_DELAYS_MS]);
    expect(attempts.at(-1)!.nextRetryAt).toBe(null);
    const state = await control.state();
    expect([state.webhooks[0]!.status, state.pending]).toEqual(['disabled', []]);
    expect(state.emails).toEqual([
      {
        to: 'owner@acme.test',
        subject: `Webhook endpoint ${receiver.origin}/hook disabled`,
        body: `Delivery of a message.delivered event to ${receiver.origin}/hook failed 6 times (last result: 500), so the endpoint was disabled. Fix it and register it again.`,
        at: expect.any(Number),
      },
    ]);
    expect(state.emails[0]!.at).toBeGreaterThanOrEqual(attempts.at(-1)!.at);
    await expect(control.emit('message.delivered', { endpointId: endpoint.id })).rejects.toThrow(
      new InvalidArgumentError(`Webhook endpoint ${endpoint.id} is disabled: enable it first.`),
    );
    await expect(control.redeliver(first!.id)).rejects.toThrow(
      new InvalidArgumentError(`Endpoint ${endpoint.id} of attempt ${first!.id} is disabled: enable it first.`),
    );
    expect((await control.deliveries()).length).toBe(6);
    expect((await control.enableWebhook(endpoint.id)).status).toBe('active');
  });

  it('drops the pending retries of an endpoint once it is removed, and retries none it had under way', async () => {
    receiver.handle((_, res) => {
      res.writeHead(503);
      res.end();
    });
    const kept = await hook('/kept', ['message.delivered']);
    const removed = await hook('/removed', ['message.delivered']);
    await control.emit('message.delivered');
    // Both retries fall due at the same virtual time, in the order the two answers came.
    expect((await control.state()).pending.map((task) => task.what).sort()).toEqual([
      `attempt 2 (retry 1) of message.delivered to ${receiver.origin}/kept`,
      `attempt 2 (retry 1) of message.delivered to ${receiver.origin}/removed`,
    ]);
    await control.removeWebhook(removed.id);
    expect((await control.state()).pending.map((task) => task.what)).toEqual([
      `attempt 2 (retry 1) of message.delivered to ${receiver.origin}/kept`,
    ]);
    await control.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]);
    // The first two attempts are listed as they finished; the retry comes after both.
    const attempts = (await control.deliveries()).map((a) => `${a.endpointId} ${a.attempt}`);
    expect(attempts.slice(0, 2).sort()).toEqual([`${kept.id} 1`, `${removed.id} 1`].sort());
    expect(attempts.slice(2)).toEqual([`${kept.id} 2`]);
  });

  it('refuses a webhook URL with a user name or password (fetch could never POST to it), saying so', async () => {
    await expect(
      control.registerWebhook({ url: 'https://user:pass@example.com/hook', events: ['message.sent'], secret: SECRET }),
    ).rejects.toThrow(
      new InvalidArgumentError(
        `${face === 'over HTTP' ? 'The body' : 'registerWebhook'}: url must not carry a user name or password.`,
      ),
    );
    expect((await control.state()).webhooks).toEqual([]);
  });

  it('injects each kind of fault, lists and clears them', async () => {
    await control.inject({ route: 'GET /account/me', status: 503, code: 'SERVICE_UNAVAILABLE', times: 2 });
    await control.inject({ route: 'GET /contacts', delay: 150 });
    await control.inject({ route: 'GET /contacts/{id}', networkError: true });
    expect(await control.faults()).toEqual([
      {
        route: 'GET /account/me',
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        networkError: false,
        delay: null,
        rate: null,
        remaining: 2,
      },
      { route: 'GET /contacts', status: null, code: null, networkError: false, delay: 150, rate: null, remaining: 1 },
      {
        route: 'GET /contacts/{id}',
        status: null,
        code: null,
        networkError: true,
        delay: null,
        rate: null,
        remaining: 1,
      },
    ]);
    expect(await api('GET', '/account/me')).toEqual({
      status: 503,
      body: { success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'Injected fault: 503.', details: {} } },
    });
    const started = performance.now();
    expect((await api('GET', '/contacts')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    await expect(api('GET', '/contacts/1')).rejects.toThrow('fetch failed');
    expect((await control.faults()).map((f) => f.remaining)).toEqual([1]);
    await control.clearFaults();
    expect([await control.faults(), (await api('GET', '/account/me')).status]).toEqual([[], 200]);
  });

  it('keeps a journal of what the app sent and what it got, API keys redacted, filtered by method, path, status and id', async () => {
    await api('POST', '/contacts/create', { name: 'Grace', phone: '+4915199999999' });
    await api('GET', `/contacts/${server.apiKey}`);
    await api('GET', '/account/me', undefined, 'sk_test_wrong');
    const all = await control.requests();
    expect(all.map((r) => [r.method, r.path, r.status, r.code])).toEqual([
      ['POST', '/contacts/create', 200, null],
      ['GET', '/contacts/[REDACTED]', 404, 'RESOURCE_NOT_FOUND'],
      ['GET', '/account/me', 401, 'AUTHENTICATION_ERROR'],
    ]);
    const [created] = await control.requests({ method: 'post', path: '/contacts/create' });
    expect(created).toEqual({
      id: all[0]!.id,
      at: expect.any(Number),
      method: 'POST',
      path: '/contacts/create',
      url: '/api/v1/contacts/create',
      query: {},
      headers: expect.objectContaining({ 'x-api-key': '[REDACTED]', 'content-type': 'application/json' }),
      body: { name: 'Grace', phone: '+4915199999999' },
      status: 200,
      code: null,
      durationMs: expect.any(Number),
      response: {
        headers: expect.objectContaining({ 'x-ratelimit-limit': '1000' }),
        body: { success: true, data: expect.objectContaining({ id: 2, name: 'Grace' }) },
      },
    });
    expect(JSON.stringify(all)).not.toContain(server.apiKey);
    expect((await control.requests({ status: '4xx' })).map((r) => r.status)).toEqual([404, 401]);
    expect((await control.requests({ path: '/contacts/{id}' })).map((r) => r.id)).toEqual([all[0]!.id, all[1]!.id]);
    expect((await control.requests({ path: '/account/me' })).map((r) => r.id)).toEqual([all[2]!.id]);
    // `after` with `limit` pages forward: the first ones after it, not the newest.
    expect((await control.requests({ after: all[0]!.id, limit: 1 })).map((r) => r.id)).toEqual([all[1]!.id]);
    expect((await control.requests({ limit: 1 })).map((r) => r.id)).toEqual([all[2]!.id]);
    expect((await control.requests({ before: all[2]!.id, limit: 1 })).map((r) => r.id)).toEqual([all[1]!.id]);
    expect((await control.requests({ before: all[2]!.id, status: '2xx' })).map((r) => r.id)).toEqual([all[0]!.id]);
    await expect(control.requests({ before: 0 })).rejects.toThrow(
      new InvalidArgumentError(`${face === 'in process' ? 'requests' : 'The query'}: before must be at least 1.`),
    );
  });

  it('journals the body of a request refused before its body was read, and a path outside the API as null', async () => {
    await api('POST', '/contacts/create', { name: 'Ada', phone: '+4915100000000' }, 'sk_test_wrong');
    await fetch(`${server.origin}/elsewhere?x=1`, { method: 'POST', body: 'hello' });
    await vi.waitFor(async () => expect((await control.requests()).every((r) => r.body !== null)).toBe(true));
    expect((await control.requests()).map((r) => [r.method, r.path, r.url, r.status, r.body])).toEqual([
      ['POST', '/contacts/create', '/api/v1/contacts/create', 401, { name: 'Ada', phone: '+4915100000000' }],
      ['POST', null, '/elsewhere?x=1', 404, 'hello'],
    ]);
    expect(await control.requests({ path: '/elsewhere' })).toEqual([]);
  });

  it('reads the delivery attempts a page at a time: forward after an id, back before an id, the newest limit', async () => {
    // One event per call, so that the attempts are recorded in the order of the calls.
    await hook('/hook', ['message.received']);
    for (const body of ['zero', 'one', 'two', 'three']) await control.receiveMessage({ from: CUSTOMER, body });
    const all = await control.deliveries();
    const ids = all.map((a) => a.id);
    expect(all.map((a) => [a.event, JSON.parse(a.request.body).data.body])).toEqual([
      ['message.received', 'zero'],
      ['message.received', 'one'],
      ['message.received', 'two'],
      ['message.received', 'three'],
    ]);
    expect((await control.deliveries({ limit: 2 })).map((a) => a.id)).toEqual(ids.slice(2));
    expect((await control.deliveries({ before: ids[3]!, limit: 2 })).map((a) => a.id)).toEqual(ids.slice(1, 3));
    expect((await control.deliveries({ after: ids[0]!, before: ids[3]! })).map((a) => a.id)).toEqual(ids.slice(1, 3));
    expect((await control.deliveries({ after: ids[0]!, limit: 2 })).map((a) => a.id)).toEqual(ids.slice(1, 3));
    expect(await control.deliveries({ after: ids[3]! })).toEqual([]);
    expect((await control.state({ deliveries: 1 })).deliveries).toEqual([all[3]]);
    expect([(await control.state({ deliveries: 0 })).deliveries, (await control.state()).deliveries]).toEqual([
      [],
      all,
    ]);
    await expect(control.deliveries({ limit: 0 })).rejects.toThrow(
      new InvalidArgumentError(`${face === 'in process' ? 'deliveries' : 'The query'}: limit must be at least 1.`),
    );
  });

  it('redelivers one attempt now, outside the schedule, and says which it repeats', async () => {
    await hook('/hook', ['contact.created']);
    const [attempt] = await control.emit('contact.created');
    const again = await control.redeliver(attempt!.id);
    expect(again).toEqual({
      ...attempt,
      id: attempt!.id + 1,
      at: expect.any(Number),
      durationMs: expect.any(Number),
      response: { ...attempt!.response, headers: expect.any(Object) },
      request: { headers: attempt!.request.headers, body: attempt!.request.body },
      redeliveryOf: attempt!.id,
    });
    expect(receiver.received.map((r) => r.body)).toEqual([attempt!.request.body, attempt!.request.body]);
    await expect(control.redeliver(999)).rejects.toThrow(
      new InvalidArgumentError('There is no delivery attempt 999 (the mock keeps the newest 1000).'),
    );
  });

  it('emits a realistic sample of each of the 10 kinds, tied to stored records where there are any, data merged over it', async () => {
    const endpoint = await hook();
    await api('POST', '/messages/send', { to: CUSTOMER, message: 'Hi' });
    for (const kind of WEBHOOK_EVENT_KINDS) {
      const attempts = await control.emit(kind);
      expect(attempts.map((a) => [a.event, a.endpointId, a.status])).toEqual([[kind, endpoint.id, 200]]);
    }
    const sample = (kind: string) =>
      (JSON.parse(receiver.received.find((r) => r.body.includes(`"event":"${kind}"`))!.body) as { data: unknown }).data;
    expect(sample('message.delivered')).toEqual({
      message_id: 'msg_1',
      to: '4915112345678',
      status: 'delivered',
      delivered_at: expect.any(String),
      conversation_id: 1,
    });
    expect(sample('contact.updated')).toEqual(expect.objectContaining({ id: 1, name: 'Ada', changed: ['name'] }));
    expect(sample('campaign.completed')).toEqual({
      campaign_id: 0,
      name: 'Sample campaign',
      sent_count: 0,
      completed_at: expect.any(String),
    });
    const [merged] = await control.emit('message.failed', {
      data: { error: { code: 131026 } },
      endpointId: endpoint.id,
    });
    expect(JSON.parse(merged!.request.body)).toMatchObject({
      event: 'message.failed',
      data: { message_id: 'msg_1', status: 'failed', error: { code: 131026 } },
    });
  });

  it('creates and revokes keys, and refuses what cannot be done without changing anything', async () => {
    const key = await control.createKey({ scopes: ['account:read'], plan: 'starter' });
    expect((await api('GET', '/account/me', undefined, key)).body.data).toEqual(
      expect.objectContaining({ plan: 'starter', scopes: ['account:read'] }),
    );
    await control.revokeKey(key);
    expect((await api('GET', '/account/me', undefined, key)).body.error.code).toBe('KEY_REVOKED');
    const before = await control.state();
    await expect(control.receiveMessage({ from: 'not a phone', body: '' })).rejects.toThrow(
      new InvalidArgumentError(
        `${face === 'over HTTP' ? 'The body' : 'receiveMessage'}: from must be an international number: 8 to 15 digits, not starting with 0, with or without a leading +; body must not be empty.`,
      ),
    );
    await expect(control.createKey({ plan: 'platinum' })).rejects.toThrow(InvalidArgumentError);
    await expect(control.revokeKey('sk_test_nobody')).rejects.toThrow(
      new InvalidArgumentError('revokeKey: this mock has no such key.'),
    );
    await expect(control.updateConversation(42, { status: 'closed' })).rejects.toThrow(
      new InvalidArgumentError('There is no conversation 42.'),
    );
    await expect(control.removeWebhook(7)).rejects.toThrow(new InvalidArgumentError('There is no webhook endpoint 7.'));
    await expect(control.clock.advance(-1)).rejects.toThrow(InvalidArgumentError);
    expect({ ...(await control.state()), now: before.now }).toEqual(before);
  });

  it('resets to the seed: seeded contacts only, no journal, no deliveries, no faults', async () => {
    await hook();
    await control.receiveMessage({ from: CUSTOMER, body: 'hi' });
    await control.inject({ status: 500, rate: 0.5 });
    await api('GET', '/contacts');
    await control.reset();
    const state = await control.state();
    expect([state.contacts.map((c) => c.name), state.messages, state.webhooks, state.deliveries]).toEqual([
      ['Ada'],
      [],
      [],
      [],
    ]);
    expect([await control.requests(), await control.faults()]).toEqual([[], []]);
    // The random sequence starts over too: the keys made after a reset are the ones made after the start.
    const key = await control.createKey();
    await control.reset();
    expect(await control.createKey()).toBe(key);
  });

  it('stops the clock: a message stays sent however long real time goes, advance delivers it, start runs on from there', async () => {
    const statusOf = async (id: string) => (await control.state()).messages.find((m) => m.id === id)!.status;
    const { now } = await control.clock.stop();
    const id = await send();
    // Past the time a running clock takes to deliver it: a message sent after it is delivered elsewhere.
    await aDeliveryOfRealTime();
    expect([(await control.health()).now, await statusOf(id)]).toEqual([now, 'sent']);
    expect(await control.clock.advance(1000)).toEqual({ now: new Date(Date.parse(now) + 1000).toISOString() });
    expect(await statusOf(id)).toBe('delivered');
    // Started, it runs on from where it stood (an hour ahead, not back at real time), and moves again.
    await control.clock.advance(3_599_000);
    const started = Date.parse((await control.clock.start()).now);
    expect(started - (Date.parse(now) + 3_600_000)).toBeGreaterThanOrEqual(0);
    expect(started - (Date.parse(now) + 3_600_000)).toBeLessThan(60_000);
    await vi.waitFor(async () => expect(Date.parse((await control.health()).now)).toBeGreaterThan(started), {
      timeout: 15_000,
      interval: 20,
    });
    expect(await control.clock.start()).toEqual({ now: expect.any(String) });
  }, 20_000);

  it('a reset lets a stopped clock run again at real time: a message sent after it is delivered', async () => {
    await control.clock.stop();
    await control.clock.advance(3_600_000);
    await control.reset();
    const { now } = await control.health();
    expect(Math.abs(Date.parse(now) - Date.now())).toBeLessThan(60_000);
    const id = await send();
    await vi.waitFor(
      async () => expect((await control.state()).messages.find((m) => m.id === id)!.status).toBe('delivered'),
      { timeout: 15_000, interval: 100 },
    );
    expect(Date.parse((await control.health()).now)).toBeGreaterThan(Date.parse(now));
  }, 20_000);

  // setMessageStatus decides one message's fate, so that what the emulator holds, what the service
  // answers and the events the app gets agree (emit() alone sends an event and changes nothing).
  describe('setMessageStatus', () => {
    beforeEach(() => hook('/hook', ['message.delivered', 'message.read', 'message.failed']));

    it('moves a sent message to read through delivered, each step with its event, and stops its lifecycle there', async () => {
      const id = await send();
      const read = await control.setMessageStatus(id, { status: 'read' });
      const now = read.read_at!;
      expect(read).toMatchObject({ id, status: 'read', delivered_at: now, read_at: now });
      expect(Math.abs(Date.parse(now) - Date.parse((await control.health()).now))).toBeLessThan(5000);
      expect(read).not.toHaveProperty('error');
      // Both deliveries go out side by side (deliveries run concurrently): either may arrive first.
      const arrived = events().map((e) => [e.event, e.timestamp, e.data.status]);
      expect(arrived.sort(([a], [b]) => String(a).localeCompare(String(b)))).toEqual([
        ['message.delivered', now, 'delivered'],
        ['message.read', now, 'read'],
      ]);
      // The lifecycle that was scheduled at the send does nothing more: no event, no change.
      await control.clock.advance(LIFECYCLE_MS.read);
      expect(events()).toHaveLength(2);
      expect((await api('GET', `/messages/${id}/status`)).body.data).toMatchObject({ status: 'read', read_at: now });
      expect((await control.state()).messages[0]).toEqual(read);
    });

    it('fails a message with its error, which message.failed and the stored message carry, so the app sees it failed', async () => {
      const id = await send();
      await control.clock.advance(LIFECYCLE_MS.delivered);
      const error = { code: '131026', message: 'Recipient unreachable' };
      const failed = await control.setMessageStatus(id, { status: 'failed', error });
      expect(failed).toMatchObject({ id, status: 'failed', delivered_at: expect.any(String), error });
      const [delivered, failure] = events();
      expect([delivered!.event, failure!.event, failure!.data]).toEqual([
        'message.delivered',
        'message.failed',
        {
          message_id: id,
          to: '4915112345678',
          status: 'failed',
          delivered_at: delivered!.data.delivered_at,
          failed_at: failed.failed_at,
          error,
          conversation_id: 1,
        },
      ]);
      // The app's tracker, fed the events, knows why: waiting for read rejects with the failure.
      const tracker = createStatusTracker();
      for (const event of events()) await tracker.apply(event);
      const rejected = await tracker.waitFor(id, 'read', { timeout: 1000 }).catch((e: unknown) => e);
      expect(rejected).toBeInstanceOf(MessageFailedError);
      expect((rejected as MessageFailedError).record.error).toEqual(error);
      // The service's answer says failed; its error is the event's (the spec shows no such field of a message).
      const answer = (await api('GET', `/messages/${id}/status`)).body.data;
      expect([answer.status, answer.failed_at, answer.error]).toEqual(['failed', failed.failed_at, undefined]);
    });

    it('fails a message with a default error when none is given', async () => {
      const id = await send();
      expect((await control.setMessageStatus(id, { status: 'failed' })).error).toEqual({
        code: 'UNDELIVERABLE',
        message: 'The message could not be delivered to the recipient.',
      });
      expect(events().map((e) => [e.event, e.data.error?.code])).toEqual([['message.failed', 'UNDELIVERABLE']]);
    });

    it('refuses a move back or to where it is, an unknown id, an inbound message and bad input, naming what is wrong, changing nothing', async () => {
      const id = await send();
      await control.setMessageStatus(id, { status: 'delivered' });
      const inbound = await control.receiveMessage({ from: CUSTOMER, body: 'Thanks' });
      const before = await control.state();
      const delivered = events().length;
      const refusals = [
        [{ status: 'delivered' }, `Message ${id} is already delivered: a status never moves back or stays (${ORDER}).`],
        [
          { status: 'sent' },
          `${face === 'over HTTP' ? 'The body' : 'setMessageStatus'}: status must be one of delivered, read, failed.`,
        ],
        [
          { status: 'read', error: { code: 'X', message: 'y' } },
          `${face === 'over HTTP' ? 'The body' : 'setMessageStatus'}: error is only for status failed.`,
        ],
        [
          { status: 'failed', error: { code: '' } },
          `${face === 'over HTTP' ? 'The body' : 'setMessageStatus'}: error.code must not be empty; error.message is required.`,
        ],
      ] as const;
      for (const [change, message] of refusals)
        await expect(control.setMessageStatus(id, change as never)).rejects.toThrow(new InvalidArgumentError(message));
      await expect(control.setMessageStatus('msg_99', { status: 'read' })).rejects.toThrow(
        new InvalidArgumentError('There is no message "msg_99".'),
      );
      await expect(control.setMessageStatus(inbound.id, { status: 'read' })).rejects.toThrow(
        new InvalidArgumentError(
          `Message ${inbound.id} is inbound (received): only an outbound message has a delivery status.`,
        ),
      );
      expect({ ...(await control.state()), now: before.now }).toEqual(before);
      expect(events()).toHaveLength(delivered);
    });
  });
});

describe('webhook receivers that redirect, hang or answer slowly', () => {
  const control = () => connectMock(server.mock);
  beforeEach(async () => {
    await control().reset();
    receiver.received.length = 0;
  });

  async function deliverTo(path: string): Promise<DeliveryAttempt> {
    const endpoint = await control().registerWebhook({
      url: `${receiver.origin}${path}`,
      events: ['message.sent'],
      secret: SECRET,
    });
    const [attempt] = await control().emit('message.sent', { endpointId: endpoint.id });
    return attempt!;
  }

  it.each([302, 307])(
    'counts a %i as a failed delivery, retried on the schedule, and never follows it',
    async (status) => {
      receiver.handle((request, res) => {
        res.writeHead(request.path === '/moved' ? status : 200, { location: '/landing' });
        res.end();
      });
      const attempt = await deliverTo('/moved');
      expect([
        attempt.status,
        attempt.ok,
        attempt.response?.headers.location,
        attempt.nextRetryAt! - attempt.at,
      ]).toEqual([status, false, '/landing', 60_000]);
      // A redirect followed would have been requested, and recorded by the receiver, before the
      // attempt's answer reached the mock: the attempt is recorded, so nothing more can come.
      expect(receiver.received.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /moved']);
    },
  );

  it('records a receiver that never answers as a time-out', async () => {
    receiver.handle(() => undefined);
    const attempt = await deliverTo('/hang');
    expect([attempt.status, attempt.ok, attempt.response, attempt.error]).toEqual([
      'timeout',
      false,
      null,
      'no answer within 500 ms',
    ]);
    expect(attempt.durationMs).toBeGreaterThanOrEqual(450);
  });

  it('waits for a slow receiver within the time-out', async () => {
    receiver.handle((_, res) => void setTimeout(() => res.end('slow but fine'), 200));
    const attempt = await deliverTo('/slow');
    expect([attempt.status, attempt.ok, attempt.response?.body]).toEqual([200, true, 'slow but fine']);
    expect(attempt.durationMs).toBeGreaterThanOrEqual(190);
  });

  it('records an unreachable receiver as a network error, saying why', async () => {
    const closed = await startTestServer();
    await closed.close();
    const endpoint = await control().registerWebhook({
      url: `${closed.origin}/hook`,
      events: ['message.sent'],
      secret: SECRET,
    });
    const [attempt] = await control().emit('message.sent', { endpointId: endpoint.id });
    expect([attempt!.status, attempt!.response, attempt!.error]).toEqual([
      'network_error',
      null,
      expect.stringContaining('ECONNREFUSED'),
    ]);
  });

  it('keeps at most 4 KiB of an answer', async () => {
    receiver.handle((_, res) => res.end('x'.repeat(100_000)));
    const attempt = await deliverTo('/big');
    expect(attempt.response!.body).toBe(`${'x'.repeat(4096)}…`);
  });
});

describe('POST /_bizmsg/messages/{id}/status over HTTP', () => {
  const call = async (id: string, body: unknown) => {
    const response = await fetch(`${new URL(server.baseUrl).origin}/_bizmsg/messages/${id}/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { error?: Record<string, unknown> } };
  };

  it('answers 409, 404 and 400 naming the field at fault', async () => {
    await connectMock(server.mock).reset();
    const id = await send();
    expect(await call(id, { status: 'failed' })).toMatchObject({ status: 200, body: { id, status: 'failed' } });
    expect(await call(id, { status: 'read' })).toEqual({
      status: 409,
      body: {
        error: {
          code: 'CONFLICT',
          message: `Message ${id} is already failed: a status never moves back or stays (${ORDER}).`,
          details: { status: [`must come after failed (${ORDER})`] },
        },
      },
    });
    expect(await call('msg_99', { status: 'read' })).toEqual({
      status: 404,
      body: {
        error: { code: 'NOT_FOUND', message: 'There is no message "msg_99".', details: { id: ['names no message'] } },
      },
    });
    expect((await call(id, { status: 'read', error: { code: 'X', message: 'y' } })).body.error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { error: ['is only for status failed'] },
    });
  });

  it('is in the control API document, its id a string', async () => {
    const document = (await (await fetch(`${new URL(server.baseUrl).origin}/_bizmsg/openapi.json`)).json()) as {
      paths: Record<string, any>;
    };
    const route = document.paths['/_bizmsg/messages/{id}/status'];
    expect(route.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } },
    ]);
    expect(route.post.operationId).toBe('setMessageStatus');
    expect(route.post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/MessageStatusChange',
    });
    expect(route.post.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Message',
    });
  });
});
