import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, Variant1Client, Variant2Client } from '../../src/index.js';
import { startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { leaksKey } from '../chaos/verdict.js';
import { OPERATION_HEADER, startFaultProxy, type FaultProxy } from '../chaos/fault-proxy.js';
import {
  bodyValue,
  clientOptionsValue,
  idValue,
  listParamsValue,
  phoneValue,
  requestOptionsValue,
  toArrayValue,
} from './client-arbitraries.js';
import { callViolations, observe, type Observation } from './client-calls.js';

// fast-check over everything a caller hands the clients, against the mock over real HTTP
// behind a pass-through proxy that counts what reaches it. Scales with BIZMSG_SOAK=long.

const LONG = process.env.BIZMSG_SOAK === 'long';
const RUNS = LONG ? 1500 : 100;
const DEADLINE_MS = 15_000;
/** Timeout of the clients whose arguments are fuzzed. */
const CLIENT_TIMEOUT_MS = 3000;

type Variant = 1 | 2;

interface Local {
  server: MockHttpServer;
  /** Counts the requests that reach the server; injects nothing. */
  proxy: FaultProxy;
  origin: string;
}

const locals = new Map<Variant, Local>();
const counts = { constructions: 0, refused: 0, calls: 0, resolved: 0, rejected: 0, invalidArgument: 0, requests: 0 };
const offHost: string[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
const realFetch = globalThis.fetch;
const savedEnv = { key: process.env.BIZMSG_API_KEY, url: process.env.BIZMSG_BASE_URL };

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  // Loopback only: a fuzzed URL must never make anything (client or mock webhook) leave the machine.
  globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!URL.canParse(url) || new URL(url).hostname !== '127.0.0.1') {
      offHost.push(url);
      return Promise.reject(new TypeError(`the fuzz suite only talks to 127.0.0.1, not ${url}`));
    }
    return realFetch(input, init);
  };
  delete process.env.BIZMSG_API_KEY;
  delete process.env.BIZMSG_BASE_URL;
  for (const variant of [1, 2] as const) {
    const server = await startMockHttpServer({
      variant,
      plans: { [variant === 1 ? 'pro' : 'enterprise']: { rateLimit: 1_000_000 } },
      seed: { random: 5, contacts: [{ name: 'Ada', phone: '+4915112345678' }] },
    });
    const proxy = await startFaultProxy({ upstream: server.baseUrl });
    locals.set(variant, { server, proxy, origin: new URL(proxy.baseUrl).origin });
  }
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  globalThis.fetch = realFetch;
  if (savedEnv.key !== undefined) process.env.BIZMSG_API_KEY = savedEnv.key;
  if (savedEnv.url !== undefined) process.env.BIZMSG_BASE_URL = savedEnv.url;
  for (const { server, proxy } of locals.values()) {
    await proxy.close();
    await server.close();
  }
  console.log(
    `fuzz clients: runs=${RUNS} per property, constructions=${counts.constructions} refused=${counts.refused} calls=${counts.calls} ` +
      `resolved=${counts.resolved} rejected=${counts.rejected} invalidArgument=${counts.invalidArgument} requests=${counts.requests} offHost=${offHost.length} unhandled=${unhandled.length}`,
  );
});

/** Observes one call through `local`'s proxy, and tallies it. */
async function observeCall(local: Local, invoke: () => unknown): Promise<Observation> {
  const observation = await observe(
    invoke,
    () => local.proxy.records.length,
    () => local.proxy.settled(),
    DEADLINE_MS,
  );
  counts.calls += 1;
  counts.requests += observation.requests;
  if (observation.outcome.kind === 'resolved') counts.resolved += 1;
  if (observation.outcome.kind === 'rejected') {
    counts.rejected += 1;
    if (InvalidArgumentError.is(observation.outcome.error)) counts.invalidArgument += 1;
  }
  return observation;
}

/** The timeout a call runs with: its own when valid, else the client's. */
function timeoutOf(options: unknown, clientTimeout: number): number {
  const timeout = readField(options, 'timeout');
  return typeof timeout === 'number' && timeout >= 1 && timeout <= 2_147_483_647 ? timeout : clientTimeout;
}

function readField(value: unknown, field: string): unknown {
  try {
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[field] : undefined;
  } catch {
    return undefined;
  }
}

function clientClass(variant: Variant) {
  return variant === 1 ? Variant1Client : Variant2Client;
}

type Args = { id: unknown; phone: unknown; body: unknown; params: unknown; options: unknown; toArray: unknown };
type Method = readonly [name: string, invoke: (client: any, a: Args) => unknown];

const SHARED_METHODS: readonly Method[] = [
  ['contacts.list', (c, a) => c.contacts.list(a.params, a.options)],
  ['contacts.list().toArray', (c, a) => c.contacts.list(a.params, a.options).toArray(a.toArray)],
  ['contacts.create', (c, a) => c.contacts.create(a.body, a.options)],
  ['contacts.get', (c, a) => c.contacts.get(a.id, a.options)],
  ['contacts.update', (c, a) => c.contacts.update(a.id, a.body, a.options)],
  ['messages.send', (c, a) => c.messages.send(a.body, a.options)],
  ['messages.sendTemplate', (c, a) => c.messages.sendTemplate(a.body, a.options)],
  ['account.me', (c, a) => c.account.me(a.options)],
];

const METHODS: Record<Variant, readonly Method[]> = {
  1: [
    ...SHARED_METHODS,
    ['messages.status', (c, a) => c.messages.status(a.id, a.options)],
    ['automations.trigger', (c, a) => c.automations.trigger(a.body, a.options)],
  ],
  2: [
    ...SHARED_METHODS,
    ['contacts.delete', (c, a) => c.contacts.delete(a.id, a.options)],
    ['contacts.findByPhone', (c, a) => c.contacts.findByPhone(a.phone, a.options)],
    ['contacts.upsert', (c, a) => c.contacts.upsert(a.body, a.options)],
    ['messages.sendText', (c, a) => c.messages.sendText(a.body, a.options)],
    ['conversations.list', (c, a) => c.conversations.list(a.params, a.options)],
    ['conversations.get', (c, a) => c.conversations.get(a.id, a.options)],
    ['campaigns.list', (c, a) => c.campaigns.list(a.options)],
    ['campaigns.create', (c, a) => c.campaigns.create(a.body, a.options)],
    ['webhooks.list', (c, a) => c.webhooks.list(a.options)],
    ['webhooks.create', (c, a) => c.webhooks.create(a.body, a.options)],
  ],
};

const argsValue = fc.record({
  id: idValue,
  phone: phoneValue,
  body: bodyValue,
  params: listParamsValue,
  options: requestOptionsValue,
  toArray: toArrayValue,
});

describe('client fuzz', () => {
  it.each([1, 2] as const)(
    'Variant %i: construction succeeds or throws InvalidArgumentError; a client built sends to .../api/v1 and fails only in typed ways',
    async (variant) => {
      const local = locals.get(variant)!;
      const Client = clientClass(variant);
      await fc.assert(
        fc.asyncProperty(clientOptionsValue(local.origin, local.server.apiKey), async (options) => {
          counts.constructions += 1;
          let client: InstanceType<typeof Client>;
          try {
            client = new Client(options as never);
          } catch (error) {
            counts.refused += 1;
            expect(InvalidArgumentError.is(error), `construction threw ${String(error)}`).toBe(true);
            expect(leaksKey(error, local.server.apiKey), 'the key shows in the construction error').toBe(false);
            return;
          }
          expect(client.baseUrl, 'the client accepted a base URL that does not end with /api/v1').toMatch(/\/api\/v1$/);
          const observation = await observeCall(local, () => client.account.me());
          const context = { apiKey: local.server.apiKey, timeoutMs: timeoutOf(options, 30_000), signal: undefined };
          expect(callViolations(observation, context)).toEqual([]);
        }),
        { numRuns: RUNS },
      );
    },
    DEADLINE_MS * 4 + RUNS * 200,
  );

  it.each([1, 2] as const)(
    'Variant %i: every method, any arguments: a promise that resolves or rejects with a BizMsgError; nothing sent when the arguments are invalid',
    async (variant) => {
      const local = locals.get(variant)!;
      const client = new (clientClass(variant))({
        apiKey: local.server.apiKey,
        baseUrl: local.proxy.baseUrl,
        timeout: CLIENT_TIMEOUT_MS,
        maxRetries: 0,
      });
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...METHODS[variant]), argsValue, async ([, invoke], args) => {
          const observation = await observeCall(local, () => invoke(client, args));
          const context = {
            apiKey: local.server.apiKey,
            timeoutMs: timeoutOf(args.options, CLIENT_TIMEOUT_MS),
            signal: readField(args.options, 'signal'),
          };
          expect(callViolations(observation, context)).toEqual([]);
        }),
        { numRuns: RUNS * 2 },
      );
    },
    DEADLINE_MS * 4 + RUNS * 400,
  );

  it(
    'list() is lazy whatever its arguments: nothing sent and nothing rejected until it is consumed, then typed errors only',
    async () => {
      const local = locals.get(2)!;
      let iteration = 0;
      const lists: readonly Method[] = [
        ['contacts.list', (c, a) => c.contacts.list(a.params, a.options)],
        ['conversations.list', (c, a) => c.conversations.list(a.params, a.options)],
        ['campaigns.list', (c, a) => c.campaigns.list(a.options)],
        ['webhooks.list', (c, a) => c.webhooks.list(a.options)],
      ];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...lists), argsValue, async ([, invoke], args) => {
          // Each run's requests carry their own operation name: a request of an earlier run that
          // reaches the proxy late (its call already given up) must not count against this one.
          const op = `lazy-${++iteration}`;
          const client = new Variant2Client({
            apiKey: local.server.apiKey,
            baseUrl: local.proxy.baseUrl,
            timeout: CLIENT_TIMEOUT_MS,
            maxRetries: 0,
            headers: { [OPERATION_HEADER]: op },
          });
          const sentByThisRun = () => local.proxy.records.filter((record) => record.op === op).length;
          const unhandledBefore = unhandled.length;
          let pages: unknown;
          try {
            pages = invoke(client, args);
          } catch (error) {
            expect.fail(`list() threw synchronously: ${String(error)}`);
          }
          // A turn of the event loop: an eager rejection would be reported as unhandled by now.
          await new Promise((resolve) => setTimeout(resolve, 5));
          expect(
            unhandled.slice(unhandledBefore).map(String),
            'unhandled rejection from a list nobody consumed yet',
          ).toEqual([]);
          expect(sentByThisRun(), 'requests sent before the list was consumed').toBe(0);
          const observation = await observe(
            () => pages,
            sentByThisRun,
            () => local.proxy.settled(op),
            DEADLINE_MS,
          );
          const context = {
            apiKey: local.server.apiKey,
            timeoutMs: timeoutOf(args.options, CLIENT_TIMEOUT_MS),
            signal: readField(args.options, 'signal'),
          };
          expect(callViolations(observation, context)).toEqual([]);
        }),
        { numRuns: RUNS },
      );
    },
    DEADLINE_MS * 4 + RUNS * 200,
  );

  it('a custom fetch that throws, hangs or answers junk still gives typed errors, in time', async () => {
    const local = locals.get(2)!;
    const behaviours = fc.constantFrom(
      ...([
        [
          'throws an Error',
          () => {
            throw new Error('boom');
          },
        ],
        [
          'throws a string',
          () => {
            throw 'boom';
          },
        ],
        [
          'throws undefined',
          () => {
            throw undefined;
          },
        ],
        ['rejects with null', () => Promise.reject(null)],
        ['returns a number', () => 42],
        ['returns null', () => null],
        ['returns a plain object', () => ({ ok: true, status: 200 })],
        ['answers 200 with JSON null', () => new Response('null', { status: 200 })],
        ['answers 200 with an array', () => Response.json([1, 2])],
        ['answers 204', () => new Response(null, { status: 204 })],
        ['answers 200 with junk', () => new Response('\u0000\ud800{', { status: 200 })],
        [
          'answers 299 with junk rate-limit headers',
          () =>
            new Response('{}', {
              status: 299,
              headers: {
                'x-ratelimit-limit': '-1',
                'x-ratelimit-remaining': 'x',
                'x-ratelimit-reset': '99999999999999999999',
              },
            }),
        ],
        [
          'answers 429 asking for a day',
          () => new Response('{}', { status: 429, headers: { 'retry-after': '86400' } }),
        ],
        [
          'answers 429 with a Retry-After date far ahead',
          () => new Response('', { status: 429, headers: { 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' } }),
        ],
        [
          'answers 500 with a body that errors',
          () =>
            new Response(new ReadableStream({ pull: (controller) => controller.error(new Error('stream broke')) }), {
              status: 500,
            }),
        ],
        [
          'answers 200 with a body that errors',
          () =>
            new Response(new ReadableStream({ pull: (controller) => controller.error(new Error('stream broke')) }), {
              status: 200,
            }),
        ],
        [
          'never answers, but honours the signal',
          (_input: unknown, init?: RequestInit) =>
            new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason))),
        ],
      ] as const),
    );
    await fc.assert(
      fc.asyncProperty(behaviours, fc.constantFrom('account.me', 'contacts.create'), async ([, behaviour], method) => {
        const client = new Variant2Client({
          apiKey: local.server.apiKey,
          baseUrl: local.proxy.baseUrl,
          timeout: 200,
          maxRetries: 0,
          fetch: behaviour as unknown as typeof fetch,
        });
        const observation = await observeCall(local, () =>
          method === 'account.me'
            ? client.account.me()
            : client.contacts.create({ name: 'x', phone: '+4915112345678' }),
        );
        expect(
          callViolations(observation, {
            apiKey: local.server.apiKey,
            timeoutMs: 200,
            signal: undefined,
            faultyTransport: true,
          }),
        ).toEqual([]);
      }),
      { numRuns: Math.min(RUNS, 60) },
    );
  });

  it('never left the loopback address', () => {
    expect(offHost).toEqual([]);
  });

  it('left no unhandled rejection behind (a promise the client made and nobody could catch)', async () => {
    // Unhandled rejections are reported once the microtask queue drains: a turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(
      unhandled.map((reason) => (reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason))),
    ).toEqual([]);
  });
});
