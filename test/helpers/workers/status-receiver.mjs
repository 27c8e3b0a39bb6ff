// A webhook receiver process on the built package: webhookMiddleware applying every message event
// to a status tracker on Redis (redisStatusStore). Told by its parent (IPC): { secret, redisUrl }.
// Answers { port } once listening; on 'applied' answers { at: { [message id]: epoch ms (high
// resolution) when its last event was applied } }; on 'stop' closes everything and exits.
import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { redisStatusStore } from 'bizmsg/redis';
import { createStatusTracker, webhookMiddleware } from 'bizmsg/webhooks';

const now = () => performance.timeOrigin + performance.now();

process.once('message', ({ secret, redisUrl }) => {
  const redis = new Redis(redisUrl);
  const tracker = createStatusTracker({ store: redisStatusStore(redis) });
  const at = {};
  const middleware = webhookMiddleware({
    secret,
    tracker,
    // Runs after the tracker applied the event.
    onEvent: (event) => {
      if (typeof event.data.message_id === 'string') at[event.data.message_id] = now();
    },
  });
  const server = createServer((req, res) => void middleware(req, res));
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('message', async (message) => {
    if (message === 'applied') process.send({ at });
    if (message !== 'stop') return;
    server.close();
    await tracker.close();
    redis.disconnect();
    process.exit(0);
  });
});
