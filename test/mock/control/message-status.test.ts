import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  connectMock,
  InvalidArgumentError,
  LIFECYCLE_MS,
  startMockHttpServer,
  type MockControl,
  type MockHttpServer,
} from '../../../src/mock/index.js';
import { createStatusTracker, MessageFailedError, type WebhookEvent } from '../../../src/webhooks/index.js';
import { startTestServer } from '../../helpers/http-server.js';

// setMessageStatus decides one message's fate, so that what the emulator holds, what the service
// answers and the events the app gets agree (emit() alone sends an event and changes nothing).

const SECRET = 'whsec_status_test';
const CUSTOMER = '+4915112345678';
const ORDER = 'sent < delivered < read < failed';

let server: MockHttpServer;
let receiver: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startMockHttpServer({ variant: 1 });
  receiver = await startTestServer();
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

/** A call to the service itself, as an app under test makes it (Variant 1: X-API-Key). */
async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-api-key': server.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
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

describe.each([
  ['in process', () => connectMock(server.mock)],
  ['over HTTP', () => connectMock(server.url)],
])('setMessageStatus %s', (face, connect) => {
  let control: MockControl;

  beforeEach(async () => {
    control = connect();
    await control.reset();
    receiver.received.length = 0;
    receiver.handle((_, res) => res.end('ok'));
    await control.registerWebhook({
      url: `${receiver.origin}/hook`,
      events: ['message.delivered', 'message.read', 'message.failed'],
      secret: SECRET,
    });
  });

  it('moves a sent message to read through delivered, each step with its event, and stops its lifecycle there', async () => {
    const id = await send();
    const read = await control.setMessageStatus(id, { status: 'read' });
    const now = read.read_at!;
    expect(read).toMatchObject({ id, status: 'read', delivered_at: now, read_at: now });
    expect(Math.abs(Date.parse(now) - Date.parse((await control.health()).now))).toBeLessThan(5000);
    expect(read).not.toHaveProperty('error');
    expect(events().map((e) => [e.event, e.timestamp, e.data.status])).toEqual([
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
    expect((await api('GET', `/messages/${id}/status`)).body.data).toMatchObject({ status: 'failed', error });
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

describe('POST /_bizmsg/messages/{id}/status over HTTP', () => {
  const call = async (id: string, body: unknown) => {
    const response = await fetch(`${new URL(server.url).origin}/_bizmsg/messages/${id}/status`, {
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
    const document = (await (await fetch(`${new URL(server.url).origin}/_bizmsg/openapi.json`)).json()) as {
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
