import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MockService } from '../../src/mock/index.js';
import { useTestServer } from '../helpers/http-server.js';

// The bounds that keep a flood or a loop of deliveries from taking the machine down: 32 POSTs at
// once, 1,000 waiting their turn (past it a delivery is not sent, and counts as failed), and 1,000
// retries waiting per endpoint (past it the endpoint is disabled, as after its last retry).

const receiver = useTestServer();
const mocks: MockService[] = [];
afterEach(() => {
  for (const mock of mocks.splice(0)) mock.pause();
});

function mockWithEndpoint(options: { webhookTimeout?: number } = {}) {
  const mock = new MockService({ variant: 2, ...options });
  mocks.push(mock);
  const endpoint = mock.registerWebhook({ url: `${receiver.origin}/hook`, events: ['contact.created'], secret: 's' });
  return { mock, endpoint };
}

describe('deliveries in flight', () => {
  it('POSTs 32 at once, keeps 1,000 waiting their turn, and records the rest as not sent', async () => {
    const held: ServerResponse[] = [];
    let open = 0;
    let most = 0;
    receiver.handle((_, res) => {
      open += 1;
      most = Math.max(most, open);
      res.once('finish', () => (open -= 1));
      held.push(res);
    });
    const { mock } = mockWithEndpoint({ webhookTimeout: 60_000 });
    const attempts = Array.from({ length: 1040 }, () => mock.emit('contact.created'));
    await expect.poll(() => held.length).toBe(32);
    await expect.poll(() => mock.deliveries.length).toBe(8);
    expect(mock.deliveries.map(({ status, ok, error, response }) => ({ status, ok, error, response }))).toEqual(
      Array(8).fill({
        status: 'network_error',
        ok: false,
        error: "not sent: 32 deliveries were in flight and 1000 waiting (the mock's bound)",
        response: null,
      }),
    );
    // Signed as any other, and retried on the schedule.
    expect(mock.deliveries[0]!.request.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(mock.deliveries[0]!.nextRetryAt).toBe(mock.deliveries[0]!.at + 60_000);
    receiver.handle((_, res) => res.end('ok'));
    for (const res of held.splice(0)) res.end('ok');
    await Promise.all(attempts);
    expect([most, receiver.received.length, mock.deliveries.filter((attempt) => attempt.ok).length]).toEqual([
      32, 1032, 1000,
    ]);
  }, 60_000);
});

describe('retries waiting', () => {
  it('disables an endpoint whose failures leave 1,000 retries waiting, drops them, and e-mails why', async () => {
    receiver.handle((_, res) => {
      res.writeHead(500);
      res.end();
    });
    const { mock, endpoint } = mockWithEndpoint();
    await Promise.all(Array.from({ length: 1000 }, () => mock.emit('contact.created')));
    expect([endpoint.status, mock.clock.pending().length]).toEqual(['active', 1000]);
    const [last] = await mock.emit('contact.created');
    expect([last!.status, last!.nextRetryAt, endpoint.status, mock.clock.pending()]).toEqual([
      500,
      null,
      'disabled',
      [],
    ]);
    expect(mock.emails).toEqual([
      {
        to: 'owner@acme.test',
        subject: `Webhook endpoint ${receiver.origin}/hook disabled`,
        body: `Deliveries to ${receiver.origin}/hook kept failing until 1000 retries were waiting (last result: 500), so the endpoint was disabled and its retries dropped. Fix it and enable it again.`,
        at: expect.any(Number),
      },
    ]);
  }, 60_000);
});

// Big events: a retry keeps its body whole (it sends those exact signed bytes again), so the bytes
// of bodies held for later are bounded too, 32 MiB of each kind (strings counted at two bytes a
// character): ~1 MB of data makes a body of ~2 MB as counted, so 16 of them fill a bound.
const BIG = { note: 'x'.repeat(1_000_000) };

describe('bodies held for later, in bytes', () => {
  it('sends no more once the bodies in flight and waiting hold 32 MiB, and records the rest as not sent', async () => {
    const held: ServerResponse[] = [];
    receiver.handle((_, res) => held.push(res));
    const { mock } = mockWithEndpoint({ webhookTimeout: 60_000 });
    mock.clock.stop();
    const attempts = Array.from({ length: 20 }, () => mock.emit('contact.created', { data: BIG }));
    // 32 MB on their way to the receiver: a loaded machine takes its time.
    await expect.poll(() => held.length, { timeout: 30_000 }).toBe(16);
    await expect.poll(() => mock.deliveries.length, { timeout: 30_000 }).toBe(4);
    expect(mock.deliveries.map(({ status, error }) => [status, error])).toEqual(
      Array(4).fill([
        'network_error',
        "not sent: the deliveries in flight and waiting held 32 MiB of bodies (the mock's bound)",
      ]),
    );
    for (const res of held.splice(0)) res.end('ok');
    await Promise.all(attempts);
    // Once they are answered, big events go again.
    receiver.handle((_, res) => res.end('ok'));
    expect((await mock.emit('contact.created', { data: BIG }))[0]!.ok).toBe(true);
  }, 60_000);

  it('keeps 32 MiB of retries of all endpoints: past it disables the endpoint holding the most, not one that failed once', async () => {
    receiver.handle((_, res) => {
      res.writeHead(500);
      res.end();
    });
    const { mock, endpoint: flooded } = mockWithEndpoint();
    const other = mock.registerWebhook({ url: `${receiver.origin}/other`, events: ['contact.created'], secret: 's' });
    mock.clock.stop();
    for (let i = 0; i < 16; i++) await mock.emit('contact.created', { data: BIG, endpointId: flooded.id });
    expect([flooded.status, mock.clock.pending().length, mock.emails]).toEqual(['active', 16, []]);
    // The other endpoint fails once: its retry is kept, the flooded endpoint disabled to make room.
    const [once] = await mock.emit('contact.created', { data: BIG, endpointId: other.id });
    expect([once!.nextRetryAt, other.status, flooded.status]).toEqual([once!.at + 60_000, 'active', 'disabled']);
    expect(mock.clock.pending()).toEqual([
      { at: once!.at + 60_000, what: `attempt 2 (retry 1) of contact.created to ${receiver.origin}/other` },
    ]);
    expect(mock.emails).toEqual([
      {
        to: 'owner@acme.test',
        subject: `Webhook endpoint ${receiver.origin}/hook disabled`,
        body: `Deliveries to ${receiver.origin}/hook kept failing until their retries held 30.5 MiB of the 32 MiB the mock keeps for retries of all endpoints, so the endpoint was disabled and its retries dropped. Fix it and enable it again.`,
        at: expect.any(Number),
      },
    ]);
    // The endpoint that keeps failing is disabled in its turn, its own retry dropped.
    for (let i = 0; i < 15; i++) await mock.emit('contact.created', { data: BIG, endpointId: other.id });
    const [last] = await mock.emit('contact.created', { data: BIG, endpointId: other.id });
    expect([last!.nextRetryAt, other.status, mock.clock.pending()]).toEqual([null, 'disabled', []]);
    // A reset forgets what the dropped retries held: an endpoint of the new state fills the bound anew.
    mock.reset();
    mock.clock.stop();
    const fresh = mock.registerWebhook({ url: `${receiver.origin}/fresh`, events: ['contact.created'], secret: 's' });
    for (let i = 0; i < 16; i++) await mock.emit('contact.created', { data: BIG, endpointId: fresh.id });
    expect([fresh.status, mock.clock.pending().length, mock.emails]).toEqual(['active', 16, []]);
  }, 60_000);
});
