import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Variant1Client, Variant2Client } from '../../src/index.js';
import { startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import {
  FAULTS,
  OPERATION_HEADER,
  startFaultProxy,
  type EchoPlace,
  type Fault,
  type FaultProxy,
} from './fault-proxy.js';
import {
  indexState,
  makeOperation,
  seedContacts,
  type AnyClient,
  type Operation,
  type OperationKind,
  type Targets,
} from './operations.js';
import { describeCase, leaksKey, runWithDeadline, violationsOf, type Case } from './verdict.js';

// Each fault of the proxy, scripted on the first attempt or on every attempt, against every
// kind of call of both clients: the deterministic slice of the soak, one fault at a time.

const TIMEOUT_MS = 1000;
const SLOW_MS = 2000;
const DEADLINE_MS = 10_000;
/** A long rate-limit window: every answer says the window resets far ahead. */
const DAY_MS = 86_400_000;

type Variant = 1 | 2;

interface Rig {
  server: MockHttpServer;
  proxy: FaultProxy;
  targets: Targets;
  /** Faults per operation id, one per attempt; the last one repeats. */
  scripts: Map<string, readonly Fault[]>;
}

const rigs = new Map<Variant, Rig>();

async function startRig(variant: Variant, echoCredentials?: EchoPlace): Promise<Rig> {
  const seed = seedContacts(200, 20);
  const server = await startMockHttpServer({
    variant,
    plans: { [variant === 1 ? 'pro' : 'enterprise']: { rateLimit: 1_000_000, window: DAY_MS } },
    seed: { random: 3, contacts: seed.contacts },
  });
  const scripts = new Map<string, readonly Fault[]>();
  const attempts = new Map<string, number>();
  const proxy = await startFaultProxy({
    upstream: server.baseUrl,
    slowMs: SLOW_MS,
    ...(echoCredentials === undefined ? {} : { echoCredentials }),
    choose: ({ op }) => {
      const faults = scripts.get(op ?? '') ?? ['pass'];
      const attempt = attempts.get(op ?? '') ?? 0;
      attempts.set(op ?? '', attempt + 1);
      return faults[Math.min(attempt, faults.length - 1)]!;
    },
  });
  return { server, proxy, targets: seed.targets(server.mock.store), scripts };
}

async function stopRig(rig: Rig): Promise<void> {
  await rig.proxy.close();
  await rig.server.close();
}

function clientOf(variant: Variant, rig: Rig): AnyClient {
  const options = { apiKey: rig.server.apiKey, baseUrl: rig.proxy.baseUrl, timeout: TIMEOUT_MS, maxRetries: 2 };
  return variant === 1
    ? { variant, client: new Variant1Client(options) }
    : { variant, client: new Variant2Client(options) };
}

let opCount = 0;

/** Runs `operation` under `faults` on a client of its own; the case, once the mock is done with its requests. */
async function runScripted(rig: Rig, operation: Operation, faults: readonly Fault[]): Promise<Case> {
  rig.scripts.set(operation.id, faults);
  const outcome = await runWithDeadline(
    (signal) => operation.call({ signal, headers: { [OPERATION_HEADER]: operation.id } }),
    DEADLINE_MS,
  );
  await rig.proxy.settled(operation.id);
  const copies = operation.copies(indexState(rig.server.mock.store));
  return {
    method: operation.method,
    outcome,
    attempts: rig.proxy.records.filter((record) => record.op === operation.id),
    copies,
    misread: outcome.kind === 'resolved' ? operation.misread(outcome.value) : undefined,
  };
}

const KINDS: Record<Variant, readonly OperationKind[]> = {
  1: ['send', 'template', 'create', 'update', 'get', 'list'],
  2: ['send', 'template', 'create', 'update', 'delete', 'get', 'list'],
};

/** Kinds retried after a fault, for which a fault on every attempt differs from one on the first. */
const RETRIED: readonly OperationKind[] = ['update', 'delete', 'get'];

/** Whether the design promises success when `fault` hits only the first attempt of `kind`. */
function recovers(fault: Fault, method: Operation['method']): boolean {
  if (fault === 'gateway-429') return true; // rejected unprocessed: any method is retried
  if (fault === 'drop-before' || fault === 'html-5xx') return method !== 'POST';
  if (fault === 'drop-after' || fault === 'slow' || fault === 'truncated') return method === 'GET' || method === 'PUT';
  return false;
}

beforeAll(async () => {
  rigs.set(1, await startRig(1));
  rigs.set(2, await startRig(2));
});
afterAll(async () => {
  for (const rig of rigs.values()) await stopRig(rig);
});

describe.each([1, 2] as const)('Variant %i client through the fault proxy', (variant) => {
  describe.concurrent.each(FAULTS)('%s', (fault) => {
    it('on the first attempt: typed, flagged when it may have been applied, never stored twice, recovered where retrying is safe', async () => {
      const rig = rigs.get(variant)!;
      const cases = await Promise.all(
        KINDS[variant].map(async (kind) => {
          const operation = makeOperation(
            kind,
            `first-${fault}-${variant}-${opCount++}`,
            clientOf(variant, rig),
            rig.targets,
          );
          const c = await runScripted(rig, operation, [fault, 'pass']);
          const broken: string[] = violationsOf(c, rig.server.apiKey);
          if (recovers(fault, operation.method) && c.outcome.kind !== 'resolved') broken.push('not recovered');
          return broken.length === 0 ? undefined : `${broken.join('+')}: ${describeCase(kind, c)}`;
        }),
      );
      expect(cases.filter((line) => line !== undefined)).toEqual([]);
    });

    it('on every attempt: typed, flagged when any attempt may have been applied, settles', async () => {
      const rig = rigs.get(variant)!;
      const kinds = KINDS[variant].filter((kind) => RETRIED.includes(kind));
      const cases = await Promise.all(
        kinds.map(async (kind) => {
          const operation = makeOperation(
            kind,
            `every-${fault}-${variant}-${opCount++}`,
            clientOf(variant, rig),
            rig.targets,
          );
          const c = await runScripted(rig, operation, [fault]);
          const broken = violationsOf(c, rig.server.apiKey);
          return broken.length === 0 ? undefined : `${broken.join('+')}: ${describeCase(kind, c)}`;
        }),
      );
      expect(cases.filter((line) => line !== undefined)).toEqual([]);
    });
  });

  it(
    "holds later calls only for a gateway 429's Retry-After, not until an earlier window's reset",
    async () => {
      const rig = rigs.get(variant)!;
      const target = clientOf(variant, rig);
      await target.client.account.me();
      expect(target.client.rateLimit!.reset * 1000 - Date.now()).toBeGreaterThan(DEADLINE_MS);
      const throttled = await runScripted(
        rig,
        makeOperation('get', `429-${variant}-${opCount++}`, target, rig.targets),
        ['gateway-429', 'pass'],
      );
      const next = await runScripted(
        rig,
        makeOperation('get', `after-429-${variant}-${opCount++}`, target, rig.targets),
        ['pass'],
      );
      expect(
        [throttled.outcome.kind, next.outcome.kind],
        `${describeCase('get', throttled)}\n${describeCase('get', next)}`,
      ).toEqual(['resolved', 'resolved']);
    },
    3 * DEADLINE_MS,
  );
});

describe.each(['header', 'reason', 'body'] as const)("a gateway page echoing the request's key in its %s", (place) => {
  it.each([1, 2] as const)('never shows the key in an error of the Variant %i client', async (variant) => {
    const rig = await startRig(variant, place);
    try {
      const target = clientOf(variant, rig);
      const shown: string[] = [];
      for (const kind of ['send', 'get'] as const) {
        const c = await runScripted(
          rig,
          makeOperation(kind, `echo-${place}-${variant}-${opCount++}`, target, rig.targets),
          ['html-5xx'],
        );
        if (c.outcome.kind !== 'rejected' || leaksKey(c.outcome.error, rig.server.apiKey))
          shown.push(describeCase(kind, c));
      }
      expect(shown).toEqual([]);
    } finally {
      await stopRig(rig);
    }
  });
});
