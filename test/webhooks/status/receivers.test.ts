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

  it('answers 400 to a message event the tracker cannot read, applying nothing, and ignores other kinds', async () => {
    const tracker = createStatusTracker();
    const handled = vi.fn();
    const post = await start(listener({ secret: SECRET, tracker, onEvent: handled }));
    const response = await post(delivered('msg_r3', { delivered_at: 'not a date' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'malformed_payload',
      message:
        'The message.delivered event cannot be tracked: data.delivered_at "not a date" is not an ISO 8601 date. Nothing was applied.',
    });
    expect(await tracker.get('msg_r3')).toBeUndefined();
    const contact = JSON.stringify({ event: 'contact.created', timestamp: new Date().toISOString(), data: { id: 1 } });
    expect((await post(contact)).status).toBe(200);
    expect(handled).toHaveBeenCalledTimes(1);
    expect(await tracker.summary()).toMatchObject({ total: 0 });
  });

  it('refuses a tracker option that is not one', () => {
    expect(() => listener({ secret: SECRET, tracker: {} as never })).toThrow(InvalidArgumentError);
  });
});
