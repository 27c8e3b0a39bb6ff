import { Agent, createServer, request, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createWebhookHandler,
  signWebhook,
  webhookMiddleware,
  createStatusTracker,
  type StatusTracker,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import { deliver, type Delivered } from '../helpers/deliver.js';
import { serveFetch } from '../helpers/fetch-adapter.js';
import { seededRandom } from '../../src/mock/state/random.js';

// The webhook receivers under a mixed, concurrent load over keep-alive connections: valid,
// tampered, unsigned, malformed and oversized deliveries, and clients that give up mid-body.
// Every valid delivery must get 200 with its handler run exactly once, every bad one its
// documented status with no handler run, nothing may hang, and each connection must carry the
// next delivery. Each receiver has a status tracker: every message ends in the status of its one
// valid delivery, and a message whose deliveries were all rejected stays as tracked (half are
// tracked before their delivery, half after). A short run in CI; a long one with BIZMSG_SOAK=long (`npm run soak`).

const LONG = process.env.BIZMSG_SOAK === 'long';
const SEED = Number(process.env.BIZMSG_SOAK_SEED ?? 20261122);
/** Keep-alive connections per receiver, each carrying its deliveries one after another. */
const CONNECTIONS = LONG ? 8 : 4;
const DELIVERIES_PER_CONNECTION = LONG ? 500 : 40;
const MAX_BODY_BYTES = 64 * 1024;
/** Longest any delivery may take before it counts as hung. */
const DEADLINE_MS = 10_000;
const SECRET = 'whsec_soak';

type Kind = 'valid' | 'tampered' | 'unsigned' | 'malformed' | 'oversized-chunked' | 'oversized-length' | 'aborted';
/** The documented answer to each kind; an aborted delivery has no one left to answer. */
const EXPECTED_STATUS: Record<Kind, number | undefined> = {
  valid: 200,
  tampered: 401,
  unsigned: 401,
  malformed: 400,
  'oversized-chunked': 413,
  'oversized-length': 413,
  aborted: undefined,
};
const WEIGHTS: Record<Kind, number> = {
  valid: 50,
  tampered: 10,
  unsigned: 10,
  malformed: 10,
  'oversized-chunked': 8,
  'oversized-length': 7,
  aborted: 5,
};

function pickKind(random: () => number): Kind {
  const entries = Object.entries(WEIGHTS) as Array<[Kind, number]>;
  let draw = random() * entries.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [kind, weight] of entries) {
    draw -= weight;
    if (draw < 0) return kind;
  }
  return 'valid';
}

const STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;

/** The status a delivery's event reports: each of the four in turn, by the delivery's number. */
function statusOf(id: string): (typeof STATUSES)[number] {
  return STATUSES[Number(id.slice(id.lastIndexOf('-') + 1)) % STATUSES.length] ?? 'delivered';
}

function eventBody(id: string, padding: number): string {
  const status = statusOf(id);
  return JSON.stringify({
    event: `message.${status}`,
    // Fresh: the receivers refuse a delivery older than 27 h by default.
    timestamp: new Date().toISOString(),
    data: {
      message_id: id,
      to: '4915112345678',
      status,
      [`${status}_at`]: '2026-11-22T10:00:00Z',
      note: 'x'.repeat(padding),
    },
  });
}

/** Splits a body into 16 KiB chunks, sent with Transfer-Encoding: chunked. */
function chunksOf(body: string): string[] {
  return Array.from({ length: Math.ceil(body.length / 16_384) }, (_, i) => body.slice(i * 16_384, (i + 1) * 16_384));
}

/** A client that starts a chunked body and goes away: resolves once its request is gone. */
function abandon(agent: Agent, url: string, body: string): Promise<void> {
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'x-service-signature': signWebhook(body, SECRET) },
    });
    req.on('error', () => undefined);
    req.on('close', () => resolve());
    req.write(body.slice(0, 1000), () => req.destroy());
  });
}

interface Outcome {
  kind: Kind;
  id: string;
  status?: number;
  error?: string;
  reused?: boolean;
  /** Whether this delivery should have found the previous one's connection open. */
  shouldReuse: boolean;
}

/** Sends one delivery of `kind` and reports what came back. */
async function send(
  agent: Agent,
  url: string,
  kind: Kind,
  id: string,
  random: () => number,
): Promise<Pick<Outcome, 'status' | 'error' | 'reused'>> {
  const body = eventBody(id, Math.floor(random() * 2000));
  const signed = { 'x-service-signature': signWebhook(body, SECRET) };
  const oversized = () => eventBody(id, MAX_BODY_BYTES + Math.floor(random() * 200 * 1024));
  let sending: Promise<Delivered>;
  switch (kind) {
    case 'valid':
      sending = deliver(agent, url, { whole: body }, signed, DEADLINE_MS);
      break;
    case 'tampered':
      sending = deliver(agent, url, { whole: body.replace(`"${id}"`, `"${id}-forged"`) }, signed, DEADLINE_MS);
      break;
    case 'unsigned':
      sending = deliver(agent, url, { whole: body }, {}, DEADLINE_MS);
      break;
    case 'malformed': {
      const junk = `${body.slice(0, -1)},}`;
      sending = deliver(agent, url, { whole: junk }, { 'x-service-signature': signWebhook(junk, SECRET) }, DEADLINE_MS);
      break;
    }
    case 'oversized-chunked': {
      const large = oversized();
      sending = deliver(
        agent,
        url,
        { chunks: chunksOf(large) },
        { 'x-service-signature': signWebhook(large, SECRET) },
        DEADLINE_MS,
      );
      break;
    }
    case 'oversized-length': {
      const large = oversized();
      sending = deliver(
        agent,
        url,
        { whole: large },
        { 'x-service-signature': signWebhook(large, SECRET) },
        DEADLINE_MS,
      );
      break;
    }
    case 'aborted':
      await abandon(agent, url, oversized());
      return {};
  }
  return sending.then(
    ({ status, reused }) => ({ status, reused }),
    (error: Error) => ({ error: error.message }),
  );
}

interface Receiver {
  name: string;
  listener: (options: WebhookHandlerOptions) => RequestListener;
}

const RECEIVERS: Receiver[] = [
  { name: 'node:http + webhookMiddleware', listener: (options) => webhookMiddleware(options) },
  {
    name: 'Express + webhookMiddleware',
    listener: (options) => express().post('/webhooks', webhookMiddleware(options)),
  },
  { name: 'fetch handler (createWebhookHandler)', listener: (options) => serveFetch(createWebhookHandler(options)) },
];

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function start(receiver: Receiver, handled: Map<string, number>, tracker: StatusTracker): Promise<string> {
  const server = createServer(
    receiver.listener({
      secret: SECRET,
      maxBodyBytes: MAX_BODY_BYTES,
      tracker,
      onEvent: (event) => {
        const id = (event.data as { message_id: string }).message_id;
        handled.set(id, (handled.get(id) ?? 0) + 1);
      },
    }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

/** One connection's deliveries, one after another over a single keep-alive socket. */
async function runConnection(
  url: string,
  prefix: string,
  random: () => number,
  tracker: StatusTracker,
): Promise<Outcome[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const outcomes: Outcome[] = [];
  try {
    for (let i = 0; i < DELIVERIES_PER_CONNECTION; i++) {
      const kind = pickKind(random);
      const id = `${prefix}-${i}`;
      const shouldReuse = i > 0 && outcomes[i - 1]!.kind !== 'aborted';
      if (i % 2 === 0) await tracker.track({ id, to: '+4915112345678' });
      outcomes.push({ kind, id, shouldReuse, ...(await send(agent, url, kind, id, random)) });
      if (i % 2 === 1) await tracker.track({ id, to: '+4915112345678' });
    }
  } finally {
    agent.destroy();
  }
  return outcomes;
}

/** What went wrong with one delivery, if anything (`tracked`: the status its message ended in). */
function violation(outcome: Outcome, handled: Map<string, number>, tracked: string | undefined): string | undefined {
  const runs = handled.get(outcome.id) ?? 0;
  const expected = EXPECTED_STATUS[outcome.kind];
  if (outcome.error?.startsWith('no answer within')) return 'hung';
  if (expected !== undefined && outcome.status !== expected) return outcome.kind === 'valid' ? 'lost' : 'wrong status';
  if (runs !== (outcome.kind === 'valid' ? 1 : 0))
    return outcome.kind === 'valid' ? (runs === 0 ? 'lost' : 'handled twice') : 'handled a rejected delivery';
  if (outcome.kind !== 'aborted' && outcome.reused !== outcome.shouldReuse) return 'connection not reused';
  if (tracked !== (outcome.kind === 'valid' ? statusOf(outcome.id) : 'sent')) return 'wrong final status';
  return undefined;
}

describe('webhook receivers under a mixed load over keep-alive connections', () => {
  it(
    'answer every delivery as documented, run each valid one once, never hang, keep every connection usable',
    async () => {
      const started = performance.now();
      const random = seededRandom(SEED);
      const runs = await Promise.all(
        RECEIVERS.map(async (receiver, r) => {
          const handled = new Map<string, number>();
          const tracker = createStatusTracker();
          const url = await start(receiver, handled, tracker);
          const connections = Array.from({ length: CONNECTIONS }, (_, c) =>
            seededRandom(Math.floor(random() * 2 ** 32) + c),
          );
          const outcomes = (
            await Promise.all(connections.map((rand, c) => runConnection(url, `r${r}c${c}`, rand, tracker)))
          ).flat();
          const tracked = new Map<string, string | undefined>();
          for (const { id } of outcomes) tracked.set(id, (await tracker.get(id))?.status);
          // The receiver still answers a fresh client afterwards. One body, signed as sent: its
          // timestamp is the clock's, so building it twice could sign a different millisecond.
          const afterBody = eventBody(`r${r}-after`, 10);
          const after = await deliver(
            new Agent(),
            url,
            { whole: afterBody },
            { 'x-service-signature': signWebhook(afterBody, SECRET) },
            DEADLINE_MS,
          );
          return { receiver: receiver.name, outcomes, handled, tracked, statusAfter: after.status };
        }),
      );
      const seconds = ((performance.now() - started) / 1000).toFixed(1);

      const all = runs.flatMap((run) =>
        run.outcomes.map((outcome) => ({
          run,
          outcome,
          problem: violation(outcome, run.handled, run.tracked.get(outcome.id)),
        })),
      );
      const byKind = Object.keys(WEIGHTS).map(
        (kind) => `${kind} ${all.filter(({ outcome }) => outcome.kind === kind).length}`,
      );
      const count = (problem: string) => all.filter((entry) => entry.problem === problem).length;
      console.log(
        `webhooks soak (seed ${SEED}): ${all.length} deliveries (${byKind.join(', ')}) on ${RECEIVERS.length} receivers x ${CONNECTIONS} keep-alive connections in ${seconds} s: ` +
          `lost ${count('lost')}, wrong status ${count('wrong status')}, handled twice ${count('handled twice')}, handled a rejected one ${count('handled a rejected delivery')}, ` +
          `hung ${count('hung')}, connection not reused ${count('connection not reused')}, wrong final status ${count('wrong final status')}`,
      );

      const problems = all
        .filter((entry) => entry.problem !== undefined)
        .map(({ run, outcome, problem }) => `${run.receiver}: ${problem}: ${JSON.stringify(outcome)}`);
      expect(problems.slice(0, 10)).toEqual([]);
      expect(runs.map((run) => [run.receiver, run.statusAfter])).toEqual(
        RECEIVERS.map((receiver) => [receiver.name, 200]),
      );
      expect(new Set(all.map(({ outcome }) => outcome.kind)).size).toBe(Object.keys(WEIGHTS).length);
    },
    LONG ? 30 * 60_000 : 60_000,
  );
});
