import { Redis } from 'ioredis';
import { Variant2Client } from 'bizmsg';
import { startMockHttpServer } from 'bizmsg/mock';
import { redisRateLimitStore } from 'bizmsg/redis';
import { runReceivers, runSenders, totals, type SenderPacing } from '../test/helpers/many-processes.js';
import { hasRedisServer, startRedisServer, type RedisServer } from '../test/helpers/redis-server.js';
import { alternate, ratio, type BenchOptions, type Row } from './lib.js';

const PROCESSES = 4;
const LIMIT = 100;
const WINDOW_MS = 2000;
const KEY = 'bm_live_bench_many_processes';

/** 4 processes sending `sends` in all on one key limited to LIMIT per WINDOW_MS. */
async function shareOfWindows(redis: RedisServer, pacing: SenderPacing, sends: number) {
  const mock = await startMockHttpServer({
    variant: 2,
    plans: { bench: { rateLimit: LIMIT, window: WINDOW_MS } },
    keys: [{ key: KEY, plan: 'bench' }],
  });
  try {
    const { reports, ms } = await runSenders({
      processes: PROCESSES,
      baseUrl: mock.baseUrl,
      apiKey: KEY,
      redisUrl: redis.url,
      pacing,
      limit: LIMIT,
      windowMs: WINDOW_MS,
      sendsEach: sends / PROCESSES,
      callers: 25,
    });
    const { statuses, perWindow, failed, warnings } = totals(reports);
    // The first and last windows may be cut short (start, end of the work); the others are whole.
    const whole = perWindow.length > 2 ? perWindow.slice(1, -1) : perWindow;
    return {
      limited: statuses[429] ?? 0,
      ok: statuses[200] ?? 0,
      failed,
      warnings: warnings.filter((line) => line.includes('rate-limit store')).length,
      windows: perWindow.length,
      lowest: Math.min(...whole) / LIMIT,
      seconds: ms / 1000,
    };
  } finally {
    await mock.close();
  }
}

/** A fetch that answers at once, with the headers of a window that never runs out. */
const instantFetch: typeof fetch = async () =>
  new Response('{"data":{"id":"1","name":"Bench","plan":"enterprise"}}', {
    headers: {
      'content-type': 'application/json',
      'x-ratelimit-limit': '1000000000',
      'x-ratelimit-remaining': '999999999',
      'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
    },
  });

/** µs per sequential call of a client on an instant fetch, with and without the Redis store. */
async function slotCost(redis: RedisServer, calls: number) {
  const client = new Redis(redis.url);
  try {
    const shared = new Variant2Client({
      apiKey: 'k_slot',
      baseUrl: 'https://bench.test/api/v1',
      fetch: instantFetch,
      rateLimitStore: redisRateLimitStore(client),
    });
    const alone = new Variant2Client({ apiKey: 'k_slot', baseUrl: 'https://bench.test/api/v1', fetch: instantFetch });
    const perCall = (c: Variant2Client) => async () => {
      const started = performance.now();
      for (let i = 0; i < calls; i++) await c.account.me();
      return ((performance.now() - started) * 1000) / calls;
    };
    await perCall(shared)();
    return await alternate(5, { shared: perCall(shared), alone: perCall(alone) });
  } finally {
    client.disconnect();
  }
}

/** Requests per second of 4 processes on a key with room to spare, with and without the Redis store. */
async function throughput(redis: RedisServer, sends: number) {
  const mock = await startMockHttpServer({
    variant: 2,
    plans: { wide: { rateLimit: 1_000_000 } },
    keys: [{ key: KEY, plan: 'wide' }],
  });
  try {
    const run = async (pacing: SenderPacing) => {
      const { reports } = await runSenders({
        processes: PROCESSES,
        baseUrl: mock.baseUrl,
        apiKey: KEY,
        redisUrl: redis.url,
        pacing,
        limit: 1_000_000,
        windowMs: 1000,
        sendsEach: sends / PROCESSES,
        callers: 10,
      });
      return sends / (Math.max(...reports.map((r) => r.ms)) / 1000);
    };
    return { shared: await run('redis'), alone: await run('local') };
  } finally {
    await mock.close();
  }
}

/** Figure 8: many processes on one key (shared budget in Redis) and many receivers (dedupe in Redis). */
export async function measureRedis({ quick }: BenchOptions): Promise<Row[]> {
  if (!hasRedisServer()) {
    return [
      {
        figure: '8',
        subject: 'many processes on Redis',
        value: 0,
        unit: '',
        note: 'skipped: redis-server is not installed (.ci/run installs it)',
      },
    ];
  }
  const redis = await startRedisServer();
  try {
    const sends = quick ? 400 : 2000;
    const label = `${PROCESSES} processes, ${sends} sends, limit ${LIMIT}/${WINDOW_MS / 1000} s`;
    const shared = await shareOfWindows(redis, 'redis', sends);
    const alone = await shareOfWindows(redis, 'local', sends);
    const flexible = await shareOfWindows(redis, 'rate-limiter-flexible', sends);
    const cost = await slotCost(redis, quick ? 300 : 2000);
    const rate = await throughput(redis, quick ? 800 : 4000);
    const events = quick ? 200 : 1000;
    const receivers = await runReceivers({ receivers: 3, events, copies: 3, failureRate: 0.1, redisUrl: redis.url });
    const exactlyOnce = [...receivers.handled.values()].filter((n) => n === 1).length;
    const lost = events - receivers.handled.size;
    const note = (r: typeof shared) =>
      `${r.ok} accepted, ${r.failed} failed for good, ${r.windows} windows, ${r.seconds.toFixed(1)} s, ${r.warnings} store warnings`;
    return [
      {
        figure: '8',
        subject: `${label}: 429 responses, Redis store`,
        value: shared.limited,
        unit: '',
        target: { text: '0', met: shared.limited === 0 },
        note: note(shared),
      },
      {
        figure: '8',
        subject: `${label}: least-used whole window, Redis store`,
        value: Math.round(shared.lowest * 100) / 100,
        unit: 'x limit',
        target: { text: '>= 0.9', met: shared.lowest >= 0.9 },
      },
      {
        figure: '8',
        subject: `${label}: wall time, Redis store`,
        value: Math.round(shared.seconds * 10) / 10,
        unit: 's',
        note: note(shared),
      },
      {
        figure: '8',
        subject: `${label}: 429 responses, each process pacing alone`,
        value: alone.limited,
        unit: '',
        note: `${note(alone)}; least-used whole window ${Math.round(alone.lowest * 100) / 100}x limit`,
      },
      {
        figure: '8',
        subject: `${label}: wall time, each process pacing alone`,
        value: Math.round(alone.seconds * 10) / 10,
        unit: 's',
        baseline: {
          name: 'Redis store',
          value: Math.round(shared.seconds * 10) / 10,
          ratio: ratio(alone.seconds, shared.seconds),
        },
      },
      {
        figure: '8',
        subject: `${label}: 429 responses, rate-limiter-flexible (its own ${WINDOW_MS / 1000} s windows)`,
        value: flexible.limited,
        unit: '',
        note: `${note(flexible)}; least-used whole window ${Math.round(flexible.lowest * 100) / 100}x limit`,
      },
      {
        figure: '8',
        subject: 'one slot from Redis on loopback: µs added per request',
        value: Math.round(cost.shared - cost.alone),
        unit: 'µs',
        baseline: {
          name: 'call without a store',
          value: Math.round(cost.alone),
          ratio: ratio(cost.shared, cost.alone),
        },
      },
      {
        figure: '8',
        subject: `${PROCESSES} processes, no limit reached: requests/s with the Redis store`,
        value: Math.round(rate.shared),
        unit: 'req/s',
        baseline: { name: 'each process alone', value: Math.round(rate.alone), ratio: ratio(rate.shared, rate.alone) },
      },
      {
        figure: '8',
        subject: `3 receivers, ${events} events x 3 copies at once, 10% of handler calls failing: events handled exactly once`,
        value: exactlyOnce,
        unit: `of ${events}`,
        target: { text: `${events}, none lost`, met: exactlyOnce === events && lost === 0 },
        note: `${receivers.failures} handler failures, ${receivers.inProgress} copies answered 503 while another was handled, ${receivers.posts} posts, ${(receivers.ms / 1000).toFixed(1)} s`,
      },
    ];
  } finally {
    await redis.stop();
  }
}
