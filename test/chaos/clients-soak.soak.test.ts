import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Variant1Client, Variant2Client } from '../../src/index.js';
import { startMockHttpServer } from '../../src/mock/index.js';
import { OPERATION_HEADER, startFaultProxy, type FaultRates, type ProxiedRequest } from './fault-proxy.js';
import { seededRandom } from '../../src/mock/state/random.js';
import {
  indexState,
  makeOperation,
  seedContacts,
  type AnyClient,
  type Operation,
  type OperationKind,
} from './operations.js';
import { describeCase, runWithDeadline, violationsOf, type Case, type Violation } from './verdict.js';

// Both clients, ~50 calls in flight each, through a proxy that drops, delays and replaces
// answers; afterwards every outcome is checked against the mock's state. A short run in CI,
// a long one with BIZMSG_SOAK=long (`npm run soak`).

const LONG = process.env.BIZMSG_SOAK === 'long';
/** Operations across both variants. */
const OPERATIONS = LONG ? 4000 : 400;
const IN_FLIGHT = 50;
const SEED = Number(process.env.BIZMSG_SOAK_SEED ?? 20261121);
const TIMEOUT_MS = 1000;
/** Past the client's timeout, so a slow answer always times out after the mock applied the request. */
const SLOW_MS = TIMEOUT_MS + 1000;
/** Longest an operation may take: three attempts, their backoff and a few 429 waits fit well inside. */
const DEADLINE_MS = 20_000;
/** No operation starts after this; any left over count as not run. */
const BUDGET_MS = LONG ? 20 * 60_000 : 45_000;
const RATES: FaultRates = {
  'drop-before': 0.06,
  'drop-after': 0.06,
  'html-5xx': 0.06,
  'html-200': 0.06,
  'gateway-429': 0.02,
  slow: 0.06,
  truncated: 0.04,
};
const WEIGHTS: Record<1 | 2, Partial<Record<OperationKind, number>>> = {
  1: { send: 20, template: 10, create: 20, update: 20, get: 18, list: 12 },
  2: { send: 20, template: 10, create: 20, update: 15, delete: 10, get: 15, list: 10 },
};

interface VariantRun {
  variant: 1 | 2;
  planned: number;
  cases: Array<{ label: string; c: Case; violations: Violation[] }>;
  records: readonly ProxiedRequest[];
}

const runs: VariantRun[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

/** The kinds of `count` operations, drawn by weight. */
function planKinds(variant: 1 | 2, count: number): OperationKind[] {
  const random = seededRandom(SEED + variant);
  const weights = Object.entries(WEIGHTS[variant]) as Array<[OperationKind, number]>;
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  return Array.from({ length: count }, () => {
    let draw = random() * total;
    for (const [kind, weight] of weights) {
      draw -= weight;
      if (draw < 0) return kind;
    }
    return weights[0]![0];
  });
}

async function soak(variant: 1 | 2, count: number): Promise<VariantRun> {
  const kinds = planKinds(variant, count);
  const seed = seedContacts(kinds.filter((kind) => kind === 'update' || kind === 'delete').length, 20);
  // Limits far above the run, so that only the proxy's 429s happen; the windows stay a minute long.
  const server = await startMockHttpServer({
    variant,
    plans: {
      [variant === 1 ? 'pro' : 'enterprise']: { rateLimit: 1_000_000, maxContacts: 1_000_000, maxMessages: 1_000_000 },
    },
    seed: { random: SEED, contacts: seed.contacts },
  });
  const proxy = await startFaultProxy({
    upstream: server.baseUrl,
    seed: SEED + variant,
    rates: RATES,
    slowMs: SLOW_MS,
    echoCredentials: true,
  });
  try {
    const options = { apiKey: server.apiKey, baseUrl: proxy.baseUrl, timeout: TIMEOUT_MS, maxRetries: 2 };
    const target: AnyClient =
      variant === 1
        ? { variant, client: new Variant1Client(options) }
        : { variant, client: new Variant2Client(options) };
    const targets = seed.targets(server.mock.store);
    const operations = kinds.map((kind, i) => makeOperation(kind, `v${variant}-${i}`, target, targets));
    const outcomes = await runAll(operations);
    await proxy.settled(undefined, 2 * SLOW_MS);
    const state = indexState(server.mock.store);
    const attemptsByOp = new Map<string, ProxiedRequest[]>();
    for (const record of proxy.records)
      attemptsByOp.set(record.op ?? '', [...(attemptsByOp.get(record.op ?? '') ?? []), record]);
    const cases = [...outcomes].map(([operation, outcome]) => {
      const c: Case = {
        method: operation.method,
        outcome,
        attempts: attemptsByOp.get(operation.id) ?? [],
        copies: operation.copies(state),
        misread: outcome.kind === 'resolved' ? operation.misread(outcome.value) : undefined,
      };
      return { label: `${operation.id} ${operation.kind}`, c, violations: violationsOf(c, server.apiKey) };
    });
    return { variant, planned: count, cases, records: [...proxy.records] };
  } finally {
    await proxy.close();
    await server.close();
  }
}

/** Runs the operations IN_FLIGHT at a time, each against its deadline, until done or out of budget. */
async function runAll(operations: readonly Operation[]): Promise<Map<Operation, Case['outcome']>> {
  const outcomes = new Map<Operation, Case['outcome']>();
  const stopAt = Date.now() + BUDGET_MS;
  let next = 0;
  const worker = async () => {
    while (next < operations.length && Date.now() < stopAt) {
      const operation = operations[next++]!;
      const outcome = await runWithDeadline(
        (signal) => operation.call({ signal, headers: { [OPERATION_HEADER]: operation.id } }),
        DEADLINE_MS,
      );
      outcomes.set(operation, outcome);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return outcomes;
}

function count(violation: Violation): number {
  return runs.reduce((sum, run) => sum + run.cases.filter((entry) => entry.violations.includes(violation)).length, 0);
}

/** The cases breaking `violation`, described, a few per variant. */
function examples(violation: Violation, max = 8): string[] {
  return runs.flatMap((run) =>
    run.cases
      .filter((entry) => entry.violations.includes(violation))
      .slice(0, max)
      .map((entry) => describeCase(entry.label, entry.c)),
  );
}

beforeAll(
  async () => {
    process.on('unhandledRejection', onUnhandled);
    try {
      runs.push(...(await Promise.all([soak(1, OPERATIONS / 2), soak(2, OPERATIONS / 2)])));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    const operations = runs.reduce((sum, run) => sum + run.cases.length, 0);
    const faults = runs.reduce((sum, run) => sum + run.records.filter((record) => record.fault !== 'pass').length, 0);
    console.log(
      `soak: operations=${operations} faults=${faults} duplicates=${count('duplicate')} lost=${count('lost')} ` +
        `unflagged=${count('unflagged')} hung=${count('hung')} untyped=${count('untyped')} leaked=${count('leaked')}`,
    );
  },
  BUDGET_MS + DEADLINE_MS + 4 * SLOW_MS + 30_000,
);

afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

describe(`clients under chaos (${OPERATIONS} operations, ${IN_FLIGHT} in flight per client, seed ${SEED})`, () => {
  it('runs every planned operation within the time budget', () => {
    expect(runs.map((run) => [run.variant, run.cases.length])).toEqual(runs.map((run) => [run.variant, run.planned]));
  });

  it('injected every kind of fault', () => {
    const seen = new Set(runs.flatMap((run) => run.records.map((record) => record.fault)));
    expect([...seen].sort()).toEqual([
      'drop-after',
      'drop-before',
      'gateway-429',
      'html-200',
      'html-5xx',
      'pass',
      'slow',
      'truncated',
    ]);
  });

  it('stores no message or contact twice', () => {
    expect(examples('duplicate')).toEqual([]);
  });

  it('loses nothing: every operation reported as done is in the store', () => {
    expect(examples('lost')).toEqual([]);
  });

  it('flags every failure after an attempt the mock may have applied', () => {
    expect(examples('unflagged')).toEqual([]);
  });

  it('settles every operation before its deadline', () => {
    expect(examples('hung')).toEqual([]);
  });

  it('rejects only with BizMsgError', () => {
    expect(examples('untyped')).toEqual([]);
  });

  it('never shows the API key in an error', () => {
    expect(examples('leaked')).toEqual([]);
  });

  it('reads return the record asked for', () => {
    expect(examples('misread')).toEqual([]);
  });

  it('leaves no unhandled rejection', () => {
    expect(unhandled).toEqual([]);
  });
});
