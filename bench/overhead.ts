// Figure 3: the cost of one request, bizmsg against raw fetch, ky alone, openai and stripe, on each Node.
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import { ratio, type BenchOptions, type Row } from './lib.js';
import { missingRows, nodeBinaries, type NodeBinary } from './node-versions.js';
import { probe } from './packed.js';

/** Median µs per request of each subject, wall and CPU, as probes/per-request.mjs prints them. */
type Costs = Record<string, { wall: number; cpu: number }>;

/** bizmsg, its own attempt loop around ky, must stay within this of ky alone, and ahead of openai (issue 39). */
const MAX_VS_KY = 1.1;
const MAX_VS_OPENAI = 1;

/** Runs probes/per-request.mjs in the packed project on `node`. */
async function costsOn(node: NodeBinary, quick: boolean, extra: boolean): Promise<Costs> {
  const script = await probe('per-request.mjs');
  const args = [script, quick ? '50' : '300', quick ? '3' : '15', ...(extra ? ['extra'] : [])];
  return JSON.parse(execFileSync(node.path, args, { cwd: dirname(script), encoding: 'utf8' })) as Costs;
}

/**
 * Figure 3: sequential `contacts.get` against a local node:http server answering a 1 KB body with
 * the service's `X-RateLimit-*` headers, in the child's own process, subjects alternating; median
 * of 15 batches of 300 requests, wall time (the target) and CPU time (less moved by a busy machine).
 */
export async function measureOverhead({ quick }: BenchOptions): Promise<Row[]> {
  const { found, missing } = nodeBinaries(quick);
  const rows: Row[] = [];
  for (const [index, node] of found.entries()) {
    const costs = await costsOn(node, quick, index === 0);
    rows.push(...rowsOf(node.version, costs));
  }
  rows.push(...missingRows('3', missing));
  return rows;
}

function rowsOf(version: string, costs: Costs): Row[] {
  const raw = costs['raw']!;
  const vsRaw = (subject: string, name: string, target?: Row['target']): Row => ({
    figure: '3',
    subject: `${subject}, ${version} (CPU ${ratio(costs[name]!.cpu, raw.cpu)}x)`,
    value: Math.round(costs[name]!.wall),
    unit: 'µs',
    baseline: {
      name: 'raw fetch + JSON.parse',
      value: Math.round(raw.wall),
      ratio: ratio(costs[name]!.wall, raw.wall),
    },
    ...(target ? { target } : {}),
  });
  const bizmsg = costs['bizmsg']!.wall;
  const openai = costs['openai']!.wall;
  const ky = costs['ky']!.wall;
  const rows = [
    vsRaw('bizmsg contacts.get (1 KB body, rate-limit headers)', 'bizmsg', {
      text: `<= ${MAX_VS_KY}x ky (${ratio(bizmsg, ky)}x) and <= ${MAX_VS_OPENAI}x openai (${ratio(bizmsg, openai)}x)`,
      met: bizmsg <= MAX_VS_KY * ky && bizmsg <= MAX_VS_OPENAI * openai,
    }),
    vsRaw('ky alone (retry 0), same request', 'ky'),
    vsRaw('openai models.retrieve (1 KB body)', 'openai'),
    vsRaw('stripe customers.retrieve (1 KB body, node:http keep-alive)', 'stripe'),
  ];
  for (const [name, subject] of [
    ['hooked', 'bizmsg with a no-op beforeRequest hook'],
    ['logged', 'bizmsg with logLevel info (to a no-op logger)'],
  ] as const) {
    const cost = costs[name];
    if (cost === undefined) continue;
    rows.push({
      figure: '3',
      subject: `${subject}, ${version}`,
      value: Math.round(cost.wall),
      unit: 'µs',
      baseline: { name: 'bizmsg, default options', value: Math.round(bizmsg), ratio: ratio(cost.wall, bizmsg) },
    });
  }
  return rows;
}
