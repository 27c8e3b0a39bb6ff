import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Variant2Client } from '../../src/index.js';
import { LIFECYCLE_MS, MAGIC_NUMBERS, startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { redisStatusStore } from '../../src/redis/index.js';
import { createStatusTracker, MessageFailedError, type StatusTracker } from '../../src/webhooks/index.js';
import { startStatusReceiver, type StatusReceiver } from '../helpers/many-processes.js';
import { REDIS_LIBRARIES, type TestRedisClient } from '../helpers/redis-clients.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

// The receiver runs in another process (the built package, on ioredis); this process sends
// through the mock, tracks and waits (on node-redis), as an app's web server and its webhook
// endpoint would on two machines sharing one Redis.
const SECRET = 'whsec_status_processes';
let redisServer: RedisServer;
let mock: MockHttpServer;
let receiver: StatusReceiver;
let redis: TestRedisClient;
let tracker: StatusTracker;

beforeAll(async () => {
  if (!existsSync(new URL('../../dist/redis/index.js', import.meta.url)))
    throw new Error('dist/ is missing: run `npm run build` (npm test does it first).');
  redisServer = await startRedisServer();
  [mock, receiver, redis] = await Promise.all([
    startMockHttpServer({ variant: 2 }),
    startStatusReceiver({ secret: SECRET, redisUrl: redisServer.url }),
    REDIS_LIBRARIES['node-redis'](redisServer.url),
  ]);
  mock.mock.registerWebhook({
    url: receiver.url,
    secret: SECRET,
    events: ['message.sent', 'message.delivered', 'message.read', 'message.failed'],
  });
  tracker = createStatusTracker({ store: redisStatusStore(redis.redis) });
}, 30_000);
afterAll(async () => {
  await tracker?.close();
  await receiver?.stop();
  await mock?.close();
  await redis?.close();
  await redisServer?.stop();
});

describe('a status tracker across processes on one Redis', () => {
  it('waitFor here resolves with what the receiver in another process applied', { timeout: 30_000 }, async () => {
    const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
    const sends = await Promise.all(
      ['4915100000001', '4915100000002', MAGIC_NUMBERS.fails].map((to) =>
        client.messages.sendText({ to, messaging_account_id: 1, body: 'Your order shipped' }),
      ),
    );
    for (const sent of sends) await tracker.track(sent);
    const [readOne, deliveredTwo, failing] = [
      tracker.waitFor(sends[0]!.id, 'read', { timeout: 10_000 }),
      tracker.waitFor(sends[1]!.id, 'delivered', { timeout: 10_000 }),
      tracker.waitFor(sends[2]!.id, 'delivered', { timeout: 10_000 }).catch((e: unknown) => e),
    ];
    await mock.mock.clock.advance(LIFECYCLE_MS.read);
    const read = await readOne;
    // `to` as tracked: the send's, which the client wrote in E.164 (its phoneFormat).
    expect(read).toMatchObject({ id: sends[0]!.id, to: '+4915100000001', status: 'read' });
    expect(Date.parse(read.readAt!) - Date.parse(read.sentAt!)).toBeGreaterThanOrEqual(LIFECYCLE_MS.read);
    // Delivered, or already read if its subscription opened after both events.
    expect(['delivered', 'read']).toContain((await deliveredTwo).status);
    expect(await failing).toBeInstanceOf(MessageFailedError);
    expect(await tracker.summary(sends.map((s) => s.id))).toEqual({
      total: 3,
      sent: 0,
      delivered: 0,
      read: 2,
      failed: 1,
      unknown: 0,
    });
    const applied = await receiver.appliedAt();
    expect(Object.keys(applied).sort()).toEqual(sends.map((s) => s.id).sort());
  });
});
