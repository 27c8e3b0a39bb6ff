// The outside tester's report, over HTTP: a seeded endpoint (as `bizmsg-mock --forward-to` seeds
// one) is disabled while the app's receiver is down; meanwhile `say` refuses at once, saying which
// endpoint to enable; `POST /_bizmsg/reset` brings the endpoint back active with no failure left,
// and the customer's `say` reaches the app again. The mock on a real port, the app a node:http server.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_RETRY_DELAYS_MS } from '../../src/contract/webhooks.js';
import { InvalidArgumentError, Variant2Client } from '../../src/index.js';
import { connectMock, startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { webhookMiddleware } from '../../src/webhooks/index.js';

const SECRET = 'whsec_forwarded';
const PATIENT = '+447700900124';
const REPLY = 'Your appointment is cancelled.';

/** Whether the app's receiver is down (it answers 503 to every delivery). */
let down = true;
let mock: MockHttpServer;
const receive = webhookMiddleware({
  secret: SECRET,
  on: {
    'message.received': async (event) => {
      const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
      if (event.data.body === 'NO')
        await client.messages.sendText({ to: `+${event.data.from ?? ''}`, messaging_account_id: 1, body: REPLY });
    },
  },
});
const app = createServer((req, res) => {
  if (!down) return void receive(req, res);
  res.writeHead(503).end();
});

beforeAll(async () => {
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhooks`;
  mock = await startMockHttpServer({
    variant: 2,
    seed: { webhooks: [{ url, events: ['message.received'], secret: SECRET }] },
  });
});
afterAll(async () => {
  await mock.close();
  app.closeAllConnections();
  await new Promise((resolve) => app.close(resolve));
});

describe('a seeded endpoint disabled while the receiver was down, over HTTP', () => {
  it('say refuses naming it; POST /_bizmsg/reset brings it back active with no failure, and say is heard', async () => {
    const control = connectMock(mock.origin);
    await control.clock.stop();
    await control.emit('message.received');
    for (const delay of WEBHOOK_RETRY_DELAYS_MS) await control.clock.advance(delay);
    const disabled = await control.state();
    expect(disabled.webhooks.map(({ id, status }) => [id, status])).toEqual([[1, 'disabled']]);

    const refused = await control
      .customer(PATIENT)
      .say('NO')
      .catch((error: unknown) => error);
    expect(InvalidArgumentError.is(refused)).toBe(true);
    expect((refused as Error).message).toBe(
      "say: no enabled webhook endpoint subscribes to message.received, so the app cannot hear the customer; nothing was sent. Endpoint 1 subscribes to it but is disabled: enable it with enableWebhook(1) (POST /_bizmsg/webhooks/1/enable), or register one with registerWebhook({ url, events: ['message.received'], secret }) (POST /_bizmsg/webhooks).",
    );

    const reset = await fetch(`${mock.origin}/_bizmsg/reset`, { method: 'POST' });
    expect(reset.status).toBe(204);
    await control.clock.stop();

    const after = await control.state();
    expect(after.webhooks).toEqual([
      {
        id: 1,
        url: disabled.webhooks[0]!.url,
        events: ['message.received'],
        secret: SECRET,
        status: 'active',
        created_at: expect.any(String),
      },
    ]);
    expect([after.deliveries, after.emails, after.pending]).toEqual([[], [], []]);

    down = false;
    const answer = await control.customer(PATIENT).say('NO');
    expect(answer.map(({ from, text }) => [from, text])).toEqual([['app', REPLY]]);
  });
});
