// A bulk worker process for figure 11 (bench/bulk.ts), from the built package: sends the jobs of
// the queue with a client whose budget is shared through Redis. Told by argv[2] (JSON):
// { baseUrl, apiKey, redisPort, queue }. Prints "ready", stops on SIGTERM.
import { Redis } from 'ioredis';
import { Variant2Client } from 'bizmsg';
import { createBulkWorker } from 'bizmsg/bulk';
import { redisRateLimitStore } from 'bizmsg/redis';

const { baseUrl, apiKey, redisPort, queue } = JSON.parse(process.argv[2]);
const redis = new Redis({ host: '127.0.0.1', port: redisPort });
const client = new Variant2Client({ apiKey, baseUrl, maxRetries: 50, rateLimitStore: redisRateLimitStore(redis) });
const worker = await createBulkWorker({
  connection: { host: '127.0.0.1', port: redisPort },
  client,
  concurrency: 16,
  queue,
});
await worker.waitUntilReady();
console.log('ready');
process.once('SIGTERM', async () => {
  await worker.close();
  redis.disconnect();
  process.exit(0);
});
