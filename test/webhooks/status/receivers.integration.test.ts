import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  createStatusTracker,
  createWebhookHandler,
  InvalidArgumentError,
  memoryDedupeStore,
  memoryStatusStore,
  signWebhook,
  webhookMiddleware,
  type StatusStore,
  type WebhookHandlerOptions,
} from '../../../src/webhooks/index.js';
import { serveFetch } from '../../helpers/fetch-adapter.js';

const SECRET = 'whsec_tracker_receivers';
const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const RECEIVERS: Array<[string, (options: WebhookHandlerOptions) => RequestListener]> = [
  ['webhookMiddleware', (options) => webhookMiddleware(options)],
  ['createWebhookHandler', (options) => serveFetch(createWebhookHandler(options))],
];

async function start(listener: RequestListener): Promise<(body: string) => Promise<Response>> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return (body) => fetch(url, { method: 'POST', body, headers: { 'x-service-signature': signWebhook(body, SECRET) } });
}

const delivered = (id: string, data: Record<string, unknown> = {}) =>
  JSON.stringify({
    event: 'message.delivered',
    // Fresh: the receivers refuse a delivery older than 27 h by default.
    timestamp: new Date().toISOString(),
    data: { message_id: id, to: '4915112345678', status: 'delivered', delivered_at: '2026-11-22T10:00:00Z', ...data },
  });

/** A memory store whose merge fails while `down` is true. */
function flakyStore() {
  const inner = memoryStatusStore();
  const state = { down: true };
  const store: StatusStore = {
    ...inner,
    merge: (change) => (state.down ? Promise.reject(new Error('store down')) : inner.merge(change)),
    get: (id) => inner.get(id),
    summary: (ids) => inner.summary(ids),
    watch: (id, listener) => inner.watch(id, listener),
    close: () => inner.close(),
  };
  return { store, state };
}

describe.each(RECEIVERS)('%s with a tracker', (_, listener) => {
  it('applies each message event before the handlers, which see the record', async () => {
    const tracker = createStatusTracker();
    const seen: unknown[] = [];
    const post = await start(
      listener({
        secret: SECRET,
        tracker,
        on: { 'message.delivered': async (event) => void seen.push(await tracker.get(event.data.message_id)) },
      }),
    );
    const response = await post(delivered('msg_r1'));
    expect(response.status).toBe(200);
    expect(seen).toEqual([
      { id: 'msg_r1', to: '4915112345678', status: 'delivered', deliveredAt: '2026-11-22T10:00:00.000Z' },
    ]);
  });

  it('answers 500 while the store fails (the service retries) without running handlers, and applies the retry', async () => {
    const { store, state } = flakyStore();
    const tracker = createStatusTracker({ store });
    const handled = vi.fn();
    const onError = vi.fn();
    const post = await start(
      listener({ secret: SECRET, tracker, dedupe: memoryDedupeStore(), on: { 'message.delivered': handled }, onError }),
    );
    // One delivery, the same bytes each time the service sends it again.
    const body = delivered('msg_r2');
    expect((await post(body)).status).toBe(500);
    expect(handled).not.toHaveBeenCalled();
    expect(onError.mock.calls.map(([error]) => (error as Error).message)).toEqual(['store down']);
    state.down = false;
    // The dedupe claim was released: the same delivery, again, is applied and handled.
    expect((await post(body)).status).toBe(200);
    expect(handled).toHaveBeenCalledTimes(1);
    expect((await tracker.get('msg_r2'))?.status).toBe('delivered');
    const copy = await post(body);
    expect(await copy.json()).toEqual({ received: true, event: 'message.delivered', duplicate: true });
  });

  it('acknowledges a message event the tracker cannot follow, applying nothing, and ignores other kinds', async () => {
    const tracker = createStatusTracker();
    const handled = vi.fn();
    const post = await start(listener({ secret: SECRET, tracker, onEvent: handled, onDrift: () => undefined }));
    const unnamed = JSON.stringify({
      event: 'message.read',
      timestamp: new Date().toISOString(),
      data: { recipient_id: '4915112345678' },
    });
    expect(await (await post(unnamed)).json()).toEqual({ received: true, event: 'message.read' });
    const contact = JSON.stringify({ event: 'contact.created', timestamp: new Date().toISOString(), data: { id: 1 } });
    expect((await post(contact)).status).toBe(200);
    expect(handled).toHaveBeenCalledTimes(2);
    expect(await tracker.summary()).toMatchObject({ total: 0 });
  });

  it('follows messages whose events lack status or to, name the id id, or carry times in another form', async () => {
    const tracker = createStatusTracker();
    const post = await start(listener({ secret: SECRET, tracker, onDrift: () => undefined }));
    const sentAt = Date.parse('2026-11-22T10:00:00Z');
    const event = (kind: string, timestamp: unknown, data: Record<string, unknown>) =>
      JSON.stringify({ event: kind, timestamp, data });
    const now = new Date().toISOString();
    expect((await post(event('message.sent', now, { id: 'msg_o1', recipient_id: '49' }))).status).toBe(200);
    expect(await tracker.get('msg_o1')).toEqual({
      id: 'msg_o1',
      status: 'sent',
      sentAt: new Date(Date.parse(now)).toISOString(),
    });
    await post(
      event('message.delivered', now, {
        message_id: 'msg_o1',
        to: '4915112345678',
        status: 'delivered',
        delivered_at: sentAt / 1000,
      }),
    );
    await post(event('message.read', Math.floor(Date.now() / 1000), { message_id: 'msg_o1', read_at: 'soon' }));
    await post(
      event('message.failed', now, { id: 'msg_o2', errors: [{ code: 131026, title: 'Message undeliverable' }] }),
    );
    const read = await tracker.get('msg_o1');
    expect(read).toMatchObject({
      id: 'msg_o1',
      to: '4915112345678',
      status: 'read',
      deliveredAt: '2026-11-22T10:00:00.000Z',
    });
    expect(Date.parse(read!.readAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect(await tracker.get('msg_o2')).toEqual({
      id: 'msg_o2',
      status: 'failed',
      failedAt: new Date(Date.parse(now)).toISOString(),
      error: { code: '131026', message: 'Message undeliverable' },
    });
  });

  it('refuses a tracker option that is not one', () => {
    expect(() => listener({ secret: SECRET, tracker: {} as never })).toThrow(InvalidArgumentError);
  });
});
