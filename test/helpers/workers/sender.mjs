// A worker process that sends on one key, from the built package (run `npm run build` first).
// Told by its parent (IPC): { baseUrl, apiKey, redisUrl, pacing, limit, windowMs, sends, callers,
// startAt (ms) }, where pacing is 'redis' (redisRateLimitStore), 'local' (each process alone) or
// 'rate-limiter-flexible' (RateLimiterRedis with its own windows of windowMs, in a hook).
// Answers { statuses: { [status]: n }, windows: { [reset]: n 200s }, ms, failed, warnings }.
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { Variant2Client } from 'bizmsg';
import { redisRateLimitStore } from 'bizmsg/redis';

/** A beforeRequest hook that waits for a point of a rate-limiter-flexible limiter. */
function flexibleHook(redis, apiKey, limit, windowMs) {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    points: limit,
    duration: windowMs / 1000,
    keyPrefix: 'rlf',
  });
  return async () => {
    for (;;) {
      try {
        await limiter.consume(apiKey.slice(-8));
        return;
      } catch (refusal) {
        if (refusal instanceof Error) throw refusal;
        await new Promise((resolve) => setTimeout(resolve, refusal.msBeforeNext));
      }
    }
  };
}

process.once('message', async ({ baseUrl, apiKey, redisUrl, pacing, limit, windowMs, sends, callers, startAt }) => {
  const redis = pacing === 'local' ? undefined : new Redis(redisUrl);
  redis?.on('error', () => undefined);
  const statuses = {};
  const windows = {};
  const warnings = [];
  const fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    if (response.status === 200) {
      const reset = response.headers.get('x-ratelimit-reset');
      windows[reset] = (windows[reset] ?? 0) + 1;
    }
    return response;
  };
  const logger = { debug() {}, info() {}, warn: (line) => warnings.push(line), error: (line) => warnings.push(line) };
  const client = new Variant2Client({
    apiKey,
    baseUrl,
    fetch,
    maxRetries: 50,
    logLevel: 'warn',
    logger,
    ...(pacing === 'redis' ? { rateLimitStore: redisRateLimitStore(redis) } : {}),
    ...(pacing === 'rate-limiter-flexible'
      ? { hooks: { beforeRequest: [flexibleHook(redis, apiKey, limit, windowMs)] } }
      : {}),
  });
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
  const started = performance.now();
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < sends) {
        next += 1;
        await client.messages
          .sendText({ to: '+4915112345678', messaging_account_id: 1, body: `#${next}` })
          .catch(() => {
            failed += 1;
          });
      }
    }),
  );
  const ms = performance.now() - started;
  redis?.disconnect();
  process.send({ statuses, windows, ms, failed, warnings }, () => process.exit(0));
});
