import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Variant1Client, Variant2Client } from '../../../src/index.js';
import { createMockServer, LIFECYCLE_MS, MAGIC_NUMBERS } from '../../../src/mock/index.js';
import {
  BizMsgError,
  createStatusTracker,
  InvalidArgumentError,
  memoryStatusStore,
  MessageFailedError,
  StatusTimeoutError,
  webhookMiddleware,
  type StatusTracker,
  type WebhookEvent,
} from '../../../src/webhooks/index.js';

// The tracker fed as in production: sends through a client, events through a real receiver,
// on the mock's virtual clock (whose times differ from the wall clock's).
const SECRET = 'whsec_tracker';
const v2 = createMockServer({ variant: 2, baseUrl: 'https://tracker.bizmsg.test/api/v1' });
const v1 = createMockServer({ variant: 1, baseUrl: 'https://tracker-v1.bizmsg.test/api/v1' });
let tracker: StatusTracker;
let server: Server;

beforeAll(async () => {
  v2.listen();
  v1.listen();
  server = createServer((req, res) => void webhookMiddleware({ secret: SECRET, tracker })(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  v2.close();
  v1.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  v2.reset();
  v1.reset();
  tracker = createStatusTracker();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  for (const mock of [v2, v1])
    mock.registerWebhook({
      url,
      secret: SECRET,
      events: ['message.sent', 'message.delivered', 'message.read', 'message.failed'],
    });
});

afterEach(() => void vi.useRealTimers());

const client = () => new Variant2Client({ apiKey: v2.apiKey, baseUrl: v2.baseUrl });
const sendTo = (to: string) => client().messages.sendText({ to, messaging_account_id: 1, body: 'Your order shipped' });
const ms = (iso: string | undefined) => Date.parse(iso!);

describe('a status tracker against the mock', () => {
  it('follows a send to delivered and read, with the times of the virtual clock', async () => {
    // Wall time stands still, so that the mock's clock moves only by advance().
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-24T08:00:00Z') });
    await v2.clock.advance(3 * 86_400_000); // the mock's clock now runs three days ahead of the wall clock
    const sent = await sendTo('+4915112345678');
    expect(await tracker.track({ ...sent, to: '+49 151 12345678' })).toMatchObject({
      id: sent.id,
      to: '+49 151 12345678',
      status: 'sent',
    });
    const delivered = tracker.waitFor(sent.id, 'delivered', { timeout: 5000 });
    const read = tracker.waitFor(sent.id, 'read', { timeout: 5000 });
    await v2.clock.advance(LIFECYCLE_MS.delivered);
    expect((await delivered).status).toBe('delivered');
    await v2.clock.advance(LIFECYCLE_MS.read - LIFECYCLE_MS.delivered);
    const record = await read;
    expect(record).toEqual({
      id: sent.id,
      to: '+49 151 12345678',
      status: 'read',
      sentAt: new Date(Date.parse(sent.created_at!)).toISOString(),
      deliveredAt: expect.any(String),
      readAt: expect.any(String),
    });
    expect(ms(record.deliveredAt) - ms(record.sentAt)).toBe(LIFECYCLE_MS.delivered);
    expect(ms(record.readAt) - ms(record.sentAt)).toBe(LIFECYCLE_MS.read);
    expect(ms(record.sentAt)).toBe(Date.parse('2026-11-27T08:00:00Z'));
    expect(await tracker.get(sent.id)).toEqual(record);
    // Already reached: resolves at once.
    expect(await tracker.waitFor(sent.id, 'final', { timeout: 1 })).toEqual(record);
  });

  it('rejects waitFor with MessageFailedError carrying the record when the message fails first; final resolves', async () => {
    const sent = await sendTo(MAGIC_NUMBERS.fails);
    await tracker.track(sent);
    const delivered = tracker.waitFor(sent.id, 'delivered', { timeout: 5000 }).catch((e: unknown) => e);
    const final = tracker.waitFor(sent.id, 'final', { timeout: 5000 });
    await v2.clock.advance(LIFECYCLE_MS.failed);
    const error = await delivered;
    expect(error).toBeInstanceOf(MessageFailedError);
    expect(error).toBeInstanceOf(BizMsgError);
    expect((error as MessageFailedError).record).toMatchObject({
      id: sent.id,
      status: 'failed',
      failedAt: expect.any(String),
      error: { code: 'UNDELIVERABLE', message: 'The message could not be delivered to the recipient.' },
    });
    expect((error as Error).message).toMatch(
      // The mock's failure carries its error; the sentence ends with one period.
      new RegExp(
        `^Message ${sent.id} failed at \\S+ before it was delivered: UNDELIVERABLE The message could not be delivered to the recipient\\.$`,
      ),
    );
    expect(await final).toEqual((error as MessageFailedError).record);
  });

  it('times out a message that is never delivered with StatusTimeoutError, and an unknown id alike', async () => {
    const sent = await sendTo(MAGIC_NUMBERS.neverDelivered);
    await tracker.track(sent);
    await v2.clock.advance(LIFECYCLE_MS.read);
    const error = await tracker.waitFor(sent.id, 'delivered', { timeout: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StatusTimeoutError);
    expect(error).toMatchObject({ id: sent.id, goal: 'delivered', record: { status: 'sent' } });
    expect((error as Error).message).toBe(`Message ${sent.id} was not delivered within 30 ms: it is sent.`);
    const unknown = await tracker.waitFor('msg_nobody', 'final', { timeout: 30 }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ name: 'StatusTimeoutError', record: undefined });
  });

  it('waits for an id not seen yet: the event may come before the send answers', async () => {
    const waiting = tracker.waitFor('msg_1', 'delivered', { timeout: 5000 });
    const sent = await sendTo('4915112345678');
    expect(sent.id).toBe('msg_1');
    await v2.clock.advance(LIFECYCLE_MS.delivered);
    expect(await waiting).toMatchObject({ id: 'msg_1', status: 'delivered', to: '4915112345678' });
    // The late track adds the caller's spelling of `to` and moves nothing back.
    expect(await tracker.track({ ...sent, to: '+4915112345678' })).toMatchObject({
      status: 'delivered',
      to: '+4915112345678',
    });
  });

  it('stops waiting when the signal aborts, with its reason', async () => {
    const controller = new AbortController();
    const waiting = tracker.waitFor('msg_9', 'read', { signal: controller.signal, timeout: 5000 });
    controller.abort(new Error('user left the page'));
    await expect(waiting).rejects.toThrow('user left the page');
    await expect(tracker.waitFor('msg_9', 'read', { signal: AbortSignal.abort('gone') })).rejects.toBe('gone');
  });

  it('counts messages by status', async () => {
    const ids = [];
    for (const to of ['4915100000001', MAGIC_NUMBERS.fails, MAGIC_NUMBERS.neverDelivered, '4915100000002'])
      ids.push((await tracker.track(await sendTo(to))).id);
    await v2.clock.advance(LIFECYCLE_MS.delivered);
    expect(await tracker.summary()).toEqual({ total: 4, sent: 1, delivered: 2, read: 0, failed: 1, unknown: 0 });
    await v2.clock.advance(LIFECYCLE_MS.read);
    expect(await tracker.summary([ids[0]!, ids[1]!, 'msg_none', ids[0]!])).toEqual({
      total: 3,
      sent: 0,
      delivered: 0,
      read: 1,
      failed: 1,
      unknown: 1,
    });
  });

  it('Variant 1: refresh fills the record from messages.status(id), through the client', async () => {
    const v1Client = new Variant1Client({ apiKey: v1.apiKey, baseUrl: v1.baseUrl });
    const other = createStatusTracker(); // no receiver feeds this one
    const sent = await v1Client.messages.send({ to: '4915112345678', message: 'Hi' });
    await other.track(sent);
    await v1.clock.advance(LIFECYCLE_MS.read);
    const record = await other.refresh(sent.id, v1Client);
    // The client wrote the number in E.164 (its phoneFormat), as the service then reports it.
    expect(record).toMatchObject({ id: sent.id, status: 'read', to: '+4915112345678' });
    expect(ms(record.readAt) - ms(record.sentAt)).toBe(LIFECYCLE_MS.read);
    expect(
      v1
        .requests()
        .map((r) => `${r.method} ${r.path}`)
        .slice(-1),
    ).toEqual([`GET /messages/${sent.id}/status`]);
    await expect(other.refresh(sent.id, client() as never)).rejects.toThrow(InvalidArgumentError);
  });
});

const event = (kind: string, data: Record<string, unknown>, timestamp = '2026-11-22T10:00:00Z') =>
  ({ event: kind, timestamp, data }) as WebhookEvent;

describe('rules and bad input', () => {
  it('resolves waitFor for a step a message reached before it failed, and rejects it for one it never reached', async () => {
    const t = createStatusTracker();
    await t.apply(event('message.read', { message_id: 'm9', read_at: '2026-11-22T10:05:00Z' }));
    await t.apply(event('message.failed', { message_id: 'm9' }, '2026-11-22T10:06:00Z'));
    await t.apply(event('message.delivered', { message_id: 'm10' }, '2026-11-22T10:01:00Z'));
    await t.apply(event('message.failed', { message_id: 'm10' }, '2026-11-22T10:06:00Z'));
    expect(await t.waitFor('m9', 'delivered', { timeout: 1 })).toMatchObject({
      status: 'failed',
      readAt: '2026-11-22T10:05:00.000Z',
    });
    expect(await t.waitFor('m9', 'read', { timeout: 1 })).toMatchObject({ status: 'failed' });
    expect(await t.waitFor('m10', 'delivered', { timeout: 1 })).toMatchObject({
      deliveredAt: '2026-11-22T10:01:00.000Z',
    });
    await expect(t.waitFor('m10', 'read', { timeout: 1000 })).rejects.toBeInstanceOf(MessageFailedError);
  });

  it('never moves a status back, keeps the earliest time of each step, and ignores repeats', async () => {
    const t = createStatusTracker();
    await t.apply(event('message.read', { message_id: 'm1', read_at: '2026-11-22T10:05:00Z' }));
    await t.apply(event('message.delivered', { message_id: 'm1' }, '2026-11-22T10:01:00+00:00'));
    const again = await t.apply(event('message.delivered', { message_id: 'm1' }, '2026-11-22T10:01:00Z'));
    expect(again).toEqual({
      id: 'm1',
      status: 'read',
      readAt: '2026-11-22T10:05:00.000Z',
      deliveredAt: '2026-11-22T10:01:00.000Z',
    });
    expect(
      await t.apply(
        event('message.failed', { message_id: 'm2', error: { code: 'UNDELIVERABLE', message: 'Handset off' } }),
      ),
    ).toEqual({
      id: 'm2',
      status: 'failed',
      failedAt: '2026-11-22T10:00:00.000Z',
      error: { code: 'UNDELIVERABLE', message: 'Handset off' },
    });
    expect((await t.apply(event('message.delivered', { message_id: 'm2' })))!.status).toBe('failed');
  });

  it('ignores other event kinds and message events that name no message; reads what it can of the others', async () => {
    const t = createStatusTracker();
    expect(await t.apply(event('contact.created', { id: 1 }))).toBeUndefined();
    expect(await t.apply(event('message.received', { message_id: 'in_1', from: '4915112345678' }))).toBeUndefined();
    expect(await t.get('in_1')).toBeUndefined();
    for (const data of [{}, { message_id: '' }, { message_id: null }, { id: true }, { message_id: 1.5 }])
      expect(await t.apply(event('message.delivered', data))).toBeUndefined();
    expect(await t.summary()).toEqual({ total: 0, sent: 0, delivered: 0, read: 0, failed: 0, unknown: 0 });
    for (const [data, timestamp, deliveredAt] of [
      [{ message_id: 'm3', delivered_at: 'yesterday' }, undefined, '2026-11-22T10:00:00.000Z'],
      [{ message_id: 'm4' }, 'soon', undefined],
      [{ message_id: 'm5' }, '2026-11-22 10:00', '2026-11-22T10:00:00.000Z'],
      [{ message_id: 'm6', delivered_at: '2026-11-22T12:00:00+02:00' }, undefined, '2026-11-22T10:00:00.000Z'],
      [{ message_id: 'm7', delivered_at: 1795341600 }, undefined, '2026-11-22T10:00:00.000Z'],
      [{ id: 8, delivered_at: 1795341600000 }, undefined, '2026-11-22T10:00:00.000Z'],
    ] as const) {
      const record = await t.apply(event('message.delivered', data, timestamp));
      expect(record).toEqual({
        id: String('message_id' in data ? data.message_id : data.id),
        status: 'delivered',
        ...(deliveredAt === undefined ? {} : { deliveredAt }),
      });
    }
  });

  it('rejects bad arguments with InvalidArgumentError', async () => {
    const t = createStatusTracker();
    await expect(t.track({ to: '49151' } as never)).rejects.toThrow(
      'tracker.track needs a message with a non-empty string `id` (what the send resolved with), got id undefined.',
    );
    await expect(t.track({ id: 'm', to: 5 } as never)).rejects.toThrow(
      'tracker.track: `to` must be a non-empty string, got 5.',
    );
    await expect(t.apply(null as never)).rejects.toThrow('tracker.apply needs a parsed webhook event, got null.');
    await expect(t.waitFor('m', 'seen' as never)).rejects.toThrow(
      'tracker.waitFor: the status must be one of delivered, read, final, got "seen".',
    );
    await expect(t.waitFor('m', 'read', { timeout: -1 })).rejects.toThrow(InvalidArgumentError);
    await expect(t.get('')).rejects.toThrow(InvalidArgumentError);
    await expect(t.summary('m1' as never)).rejects.toThrow(InvalidArgumentError);
    expect(() => createStatusTracker({ store: {} as never })).toThrow(InvalidArgumentError);
  });
});

describe('memoryStatusStore', () => {
  it('stays bounded: past max the least recently changed record goes first, and records expire after ttl', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-24T08:00:00Z') });
    const t = createStatusTracker({ store: memoryStatusStore({ max: 3, ttl: 60_000 }) });
    for (const id of ['m1', 'm2', 'm3']) await t.track({ id });
    await t.apply(event('message.delivered', { message_id: 'm1' })); // m1 is now the newest change
    await t.track({ id: 'm4' });
    expect(await Promise.all(['m1', 'm2', 'm3', 'm4'].map(async (id) => (await t.get(id))?.status))).toEqual([
      'delivered',
      undefined,
      'sent',
      'sent',
    ]);
    vi.setSystemTime(Date.parse('2026-11-24T08:00:59Z'));
    await t.apply(event('message.read', { message_id: 'm3' }));
    vi.setSystemTime(Date.parse('2026-11-24T08:01:01Z'));
    expect(await t.summary()).toEqual({ total: 1, sent: 0, delivered: 0, read: 1, failed: 0, unknown: 0 });
    expect(await t.get('m1')).toBeUndefined();
  });

  it('rejects bad options', () => {
    expect(() => memoryStatusStore({ max: 0 })).toThrow('memoryStatusStore: `max` must be a positive integer, got 0.');
    expect(() => memoryStatusStore({ ttl: 1.5 })).toThrow(InvalidArgumentError);
  });
});
