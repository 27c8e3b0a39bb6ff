// Figure 11: the message status tracker: events applied per second (memory and Redis stores,
// each beside a hand-written floor), latency from a receiver's apply in one process to a waitFor
// in another, and the memory the default store holds after 200,000 messages.
import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { redisStatusStore } from 'bizmsg/redis';
import { createStatusTracker, signWebhook, type WebhookEvent } from 'bizmsg/webhooks';
import { startStatusReceiver } from '../test/helpers/many-processes.js';
import { hasRedisServer, startRedisServer, type RedisServer } from '../test/helpers/redis-server.js';
import { median, ratio, type BenchOptions, type Row } from './lib.js';

const KINDS = ['message.sent', 'message.delivered', 'message.read'] as const;
const event = (i: number, kind: (typeof KINDS)[number]): WebhookEvent =>
  ({
    event: kind,
    timestamp: new Date(Date.UTC(2026, 10, 22) + i).toISOString(),
    data: { message_id: `msg_${i % 10_000}`, to: '4915112345678', status: kind.slice(8) },
  }) as WebhookEvent;
const events = (count: number) => Array.from({ length: count }, (_, i) => event(i, KINDS[i % 3]!));

/** Events per second through `apply`, `concurrency` at a time. */
async function perSecond(
  list: readonly WebhookEvent[],
  concurrency: number,
  apply: (e: WebhookEvent) => Promise<unknown>,
) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < list.length) await apply(list[next++]!);
    }),
  );
  return list.length / ((performance.now() - started) / 1000);
}

/** What users wrote by hand: a Map of id to status, ranked, in this process. */
function handWritten() {
  const rank = { sent: 0, delivered: 1, read: 2, failed: 3 } as Record<string, number>;
  const statuses = new Map<string, string>();
  return async (e: WebhookEvent) => {
    const { message_id: id, status } = e.data as { message_id: string; status: string };
    const current = statuses.get(id);
    if (current === undefined || rank[status]! > rank[current]!) statuses.set(id, status);
  };
}

async function applyRates(redisServer: RedisServer | undefined, count: number) {
  const list = events(count);
  const memory = createStatusTracker();
  const floor = await perSecond(list, 1, handWritten());
  const inMemory = await perSecond(list, 1, (e) => memory.apply(e));
  if (redisServer === undefined) return { floor, inMemory };
  const redis = new Redis(redisServer.url);
  try {
    const tracker = createStatusTracker({ store: redisStatusStore(redis) });
    const redisList = list.slice(0, Math.min(count, 20_000));
    const plainSet = await perSecond(redisList, 50, (e) =>
      redis.set(`plain:${(e.data as { message_id: string }).message_id}`, e.event),
    );
    const onRedis = await perSecond(redisList, 50, (e) => tracker.apply(e));
    await tracker.close();
    return { floor, inMemory, plainSet, onRedis };
  } finally {
    redis.disconnect();
  }
}

/** ms from the receiver process's apply to the resolution of a waitFor in this process, one message at a time. */
async function crossProcessLatency(redisServer: RedisServer, messages: number) {
  const secret = 'whsec_bench_status';
  const receiver = await startStatusReceiver({ secret, redisUrl: redisServer.url });
  const redis = new Redis(redisServer.url);
  const tracker = createStatusTracker({ store: redisStatusStore(redis) });
  try {
    const resolvedAt: Record<string, number> = {};
    for (let i = 0; i < messages; i++) {
      const id = `lat_${i}`;
      const waiting = tracker.waitFor(id, 'delivered', { timeout: 10_000 });
      // Let the subscription be in place, as it is for a waitFor started at send time.
      await new Promise((resolve) => setTimeout(resolve, 2));
      const at = new Date().toISOString();
      const body = JSON.stringify({
        event: 'message.delivered',
        timestamp: at,
        data: { message_id: id, to: '4915112345678', status: 'delivered', delivered_at: at },
      });
      const answer = await fetch(receiver.url, {
        method: 'POST',
        body,
        headers: { 'x-service-signature': signWebhook(body, secret) },
      });
      await answer.arrayBuffer();
      await waiting;
      resolvedAt[id] = performance.timeOrigin + performance.now();
    }
    const applied = await receiver.appliedAt();
    const latencies = Object.entries(resolvedAt)
      .map(([id, at]) => at - applied[id]!)
      .sort((a, b) => a - b);
    return { median: median(latencies), p95: latencies[Math.floor(latencies.length * 0.95)]! };
  } finally {
    await tracker.close();
    redis.disconnect();
    await receiver.stop();
  }
}

/** Heap held by the default store after `messages` messages (tracked, then delivered), in a fresh process. */
function memoryAfter(root: string, messages: number) {
  const script = `
    const { createStatusTracker } = await import('bizmsg/webhooks');
    const heap = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
    const before = heap();
    const tracker = createStatusTracker();
    for (let i = 0; i < ${messages}; i++) {
      const id = 'msg_' + i;
      await tracker.track({ id, to: '+4915112345678', created_at: '2026-11-22T10:00:00Z' });
      await tracker.apply({ event: 'message.delivered', timestamp: '2026-11-22T10:00:01Z', data: { message_id: id, to: '4915112345678' } });
    }
    const held = (await tracker.summary()).total;
    console.log(JSON.stringify({ bytes: heap() - before, held, kept: (await tracker.get('msg_${messages - 1}')) !== undefined }));`;
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  return JSON.parse(out) as { bytes: number; held: number; kept: boolean };
}

/** Figure 11: the status tracker. */
export async function measureStatus({ quick, root }: BenchOptions): Promise<Row[]> {
  const redisServer = hasRedisServer() ? await startRedisServer() : undefined;
  try {
    const rates = await applyRates(redisServer, quick ? 30_000 : 300_000);
    const messages = 200_000;
    const memory = memoryAfter(root, messages);
    const rows: Row[] = [
      {
        figure: '11',
        subject: 'status tracker, events applied per second, memory store (one at a time)',
        value: Math.round(rates.inMemory),
        unit: 'events/s',
        baseline: {
          name: 'a hand-written Map of statuses',
          value: Math.round(rates.floor),
          ratio: ratio(rates.inMemory, rates.floor),
        },
      },
      {
        figure: '11',
        subject: `status tracker, memory of the default store after ${messages.toLocaleString('en-US')} messages`,
        value: Math.round((memory.bytes / 1024 / 1024) * 10) / 10,
        unit: 'MB',
        target: {
          text: 'bounded: 100,000 records kept (max), the newest',
          met: memory.held === 100_000 && memory.kept,
        },
        note: `${memory.held.toLocaleString('en-US')} records held, ${Math.round(memory.bytes / memory.held)} bytes each`,
      },
    ];
    if (redisServer === undefined || rates.onRedis === undefined || rates.plainSet === undefined) {
      rows.push({
        figure: '11',
        subject: 'status tracker on Redis',
        value: 0,
        unit: '',
        note: 'skipped: redis-server is not installed',
      });
      return rows;
    }
    const latency = await crossProcessLatency(redisServer, quick ? 50 : 300);
    rows.push(
      {
        figure: '11',
        subject: 'status tracker, events applied per second, Redis store (50 at a time, loopback)',
        value: Math.round(rates.onRedis),
        unit: 'events/s',
        baseline: {
          name: 'a plain SET per event',
          value: Math.round(rates.plainSet),
          ratio: ratio(rates.onRedis, rates.plainSet),
        },
      },
      {
        figure: '11',
        subject: "status tracker, a receiver process's apply to a waitFor in another process (Redis pub/sub), median",
        value: Math.round(latency.median * 100) / 100,
        unit: 'ms',
        note: `p95 ${Math.round(latency.p95 * 100) / 100} ms`,
      },
    );
    return rows;
  } finally {
    await redisServer?.stop();
  }
}
