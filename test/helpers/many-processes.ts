import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { signWebhook } from '../../src/webhooks/index.js';

/** What one sender process reports. */
export interface SenderReport {
  /** Responses by status. */
  statuses: Record<string, number>;
  /** 200 responses by the `X-RateLimit-Reset` of their window. */
  windows: Record<string, number>;
  /** Wall time of its sends. */
  ms: number;
  /** Sends that failed for good. */
  failed: number;
  /** Its warning and error log lines. */
  warnings: string[];
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function worker(name: string): ChildProcess {
  return fork(fileURLToPath(new URL(`./workers/${name}.mjs`, import.meta.url)), {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`a worker exited with ${code} before answering`));
    child.once('exit', onExit);
    child.once('message', (message) => {
      child.off('exit', onExit);
      resolve(message as T);
    });
  });
}

/** How sender processes pace: a shared Redis budget, each alone, or rate-limiter-flexible's own windows. */
export type SenderPacing = 'redis' | 'local' | 'rate-limiter-flexible';

/**
 * `processes` worker processes, each sending `sendsEach` texts from `callers` concurrent
 * callers with one key whose plan allows `limit` per `windowMs`. They start together at the
 * next start of a window, so that whole windows are used.
 */
export async function runSenders(options: {
  processes: number;
  baseUrl: string;
  apiKey: string;
  redisUrl: string;
  pacing: SenderPacing;
  limit: number;
  windowMs: number;
  sendsEach: number;
  callers: number;
}): Promise<{ reports: SenderReport[]; ms: number }> {
  const children = Array.from({ length: options.processes }, () => worker('sender'));
  // Long enough for every worker to load; then the next window boundary.
  const ready = Date.now() + 2500;
  const startAt = ready + options.windowMs - (ready % options.windowMs) + 5;
  const answers = children.map((child) => nextMessage<SenderReport>(child));
  for (const child of children) {
    const { sendsEach: sends, processes: _, ...rest } = options;
    child.send({ ...rest, sends, startAt });
  }
  const reports = await Promise.all(answers);
  return { reports, ms: Date.now() - startAt };
}

/** Totals of sender reports: statuses, and 200s per window in window order. */
export function totals(reports: readonly SenderReport[]) {
  const statuses: Record<string, number> = {};
  const windows = new Map<number, number>();
  for (const report of reports) {
    for (const [status, n] of Object.entries(report.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
    for (const [reset, n] of Object.entries(report.windows))
      windows.set(Number(reset), (windows.get(Number(reset)) ?? 0) + n);
  }
  const perWindow = [...windows.entries()].sort(([a], [b]) => a - b).map(([, n]) => n);
  return {
    statuses,
    perWindow,
    failed: reports.reduce((sum, r) => sum + r.failed, 0),
    warnings: reports.flatMap((r) => r.warnings),
  };
}

/** What the receivers did with the deliveries. */
export interface ReceiverRun {
  /** Successful handler calls per event id (each should be 1). */
  handled: Map<string, number>;
  /** Handler calls that threw. */
  failures: number;
  /** HTTP posts made, retries included, and how many were answered 503 (a copy in progress). */
  posts: number;
  inProgress: number;
  ms: number;
}

/**
 * `receivers` receiver processes sharing a Redis dedupe store; each of `events` events is
 * delivered `copies` times at once (copy i to receiver i mod receivers), and every copy not
 * answered 2xx is delivered again, as the service does, until it is.
 */
export async function runReceivers(options: {
  receivers: number;
  events: number;
  copies: number;
  failureRate: number;
  redisUrl: string;
}): Promise<ReceiverRun> {
  const secret = 'whsec_many_receivers';
  const children = Array.from({ length: options.receivers }, () => worker('receiver'));
  const ports = await Promise.all(
    children.map((child) => {
      const answer = nextMessage<{ port: number }>(child);
      child.send({ secret, redisUrl: options.redisUrl, failureRate: options.failureRate });
      return answer.then(({ port }) => port);
    }),
  );
  let posts = 0;
  let inProgress = 0;
  const deliver = async (port: number, body: string) => {
    for (let attempt = 0; ; attempt++) {
      posts += 1;
      const response = await fetch(`http://127.0.0.1:${port}/webhooks`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'x-service-signature': signWebhook(body, secret) },
      });
      await response.arrayBuffer();
      if (response.ok) return;
      if (response.status === 503) inProgress += 1;
      if (attempt > 200) throw new Error(`a delivery was refused ${attempt} times (last ${response.status})`);
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  };
  const started = Date.now();
  let next = 0;
  // Up to 30 events in flight at once, each with all its copies.
  await Promise.all(
    Array.from({ length: 30 }, async () => {
      while (next < options.events) {
        const id = `msg_${next++}`;
        const body = JSON.stringify({
          event: 'message.delivered',
          // Fresh: the receivers refuse a delivery older than 27 h by default.
          timestamp: new Date().toISOString(),
          data: { message_id: id, to: '4915112345678', status: 'delivered', delivered_at: '2026-11-22T10:00:00Z' },
        });
        await Promise.all(
          Array.from({ length: options.copies }, (_, copy) => deliver(ports[copy % ports.length]!, body)),
        );
      }
    }),
  );
  const ms = Date.now() - started;
  const reports = await Promise.all(
    children.map((child) => {
      const answer = nextMessage<{ handled: string[]; failures: number }>(child);
      child.send('report');
      return answer;
    }),
  );
  const handled = new Map<string, number>();
  for (const id of reports.flatMap((report) => report.handled)) handled.set(id, (handled.get(id) ?? 0) + 1);
  return { handled, failures: reports.reduce((sum, report) => sum + report.failures, 0), posts, inProgress, ms };
}

/** A receiver process whose webhookMiddleware applies message events to a tracker on Redis. */
export interface StatusReceiver {
  /** Where deliveries go. */
  url: string;
  /** When (epoch ms, high resolution) the receiver last applied an event of each message id. */
  appliedAt(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** Starts a status receiver process (test/helpers/workers/status-receiver.mjs, on the built package). */
export async function startStatusReceiver(options: { secret: string; redisUrl: string }): Promise<StatusReceiver> {
  const child = worker('status-receiver');
  const listening = nextMessage<{ port: number }>(child);
  child.send(options);
  const { port } = await listening;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    async appliedAt() {
      const answer = nextMessage<{ at: Record<string, number> }>(child);
      child.send('applied');
      return (await answer).at;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      await exited;
    },
  };
}
