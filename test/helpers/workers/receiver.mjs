// A webhook receiver process on the built package: webhookMiddleware with redisDedupeStore.
// Told by its parent (IPC): { secret, redisUrl, failureRate }. Answers { port } once listening;
// on 'report' answers { handled: [message ids handled successfully], failures }.
import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { redisDedupeStore } from 'bizmsg/redis';
import { webhookMiddleware } from 'bizmsg/webhooks';

process.once('message', ({ secret, redisUrl, failureRate }) => {
  const redis = new Redis(redisUrl);
  const handled = [];
  let failures = 0;
  const middleware = webhookMiddleware({
    secret,
    dedupe: redisDedupeStore(redis),
    onError: () => undefined,
    on: {
      'message.delivered': async (event) => {
        // Some work, so that copies overlap; then a random failure, as a flaky database would give.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
        if (Math.random() < failureRate) {
          failures += 1;
          throw new Error('flaky handler');
        }
        handled.push(event.data.message_id);
      },
    },
  });
  const server = createServer((req, res) => void middleware(req, res));
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('message', (message) => {
    if (message !== 'report') return;
    server.close();
    redis.disconnect();
    process.send({ handled, failures }, () => process.exit(0));
  });
});
