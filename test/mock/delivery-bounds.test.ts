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
  for (const mock of mocks.splice(0)) mock.stop();
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
