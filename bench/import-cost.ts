// Figure 2: what import() of each entry adds to a cold process, against openai and stripe, on each Node.
import { execFileSync } from 'node:child_process';
import { alternate, ratio, type BenchOptions, type Row } from './lib.js';
import { missingRows, nodeBinaries, type NodeBinary } from './node-versions.js';
import { packedProject } from './packed.js';

/** Wall time (ms) of one fresh `node` process running `code` as ESM in `cwd`. */
function run(node: string, code: string, cwd: string): number {
  const started = performance.now();
  execFileSync(node, ['--input-type=module', '-e', code], { cwd, stdio: 'ignore' });
  return performance.now() - started;
}

/** Median ms above bare `node -e 0` of each import, alternating fresh processes. */
async function importCosts(node: NodeBinary, cwd: string, rounds: number) {
  const times = await alternate(rounds, {
    bare: () => run(node.path, '0', cwd),
    bizmsg: () => run(node.path, "await import('bizmsg')", cwd),
    webhooks: () => run(node.path, "await import('bizmsg/webhooks')", cwd),
    mock: () => run(node.path, "await import('bizmsg/mock')", cwd),
    openai: () => run(node.path, "await import('openai')", cwd),
    stripe: () => run(node.path, "await import('stripe')", cwd),
  });
  const above = (ms: number) => Math.round((ms - times.bare) * 10) / 10;
  return { ...times, above };
}

/** Figure 2: cold import cost above bare node, packed package, median of alternating runs. */
export async function measureImport({ quick }: BenchOptions): Promise<Row[]> {
  const cwd = await packedProject();
  const { found, missing } = nodeBinaries(quick);
  const rows: Row[] = [];
  for (const node of found) {
    const t = await importCosts(node, cwd, quick ? 5 : 21);
    const openai = t.above(t.openai);
    const row = (subject: string, ms: number, target?: Row['target']): Row => ({
      figure: '2',
      subject: `${subject}, ${node.version}`,
      value: t.above(ms),
      unit: 'ms',
      baseline: { name: 'openai', value: openai, ratio: ratio(t.above(ms), openai) },
      ...(target ? { target } : {}),
    });
    rows.push(
      row("import('bizmsg')", t.bizmsg, { text: '<= 0.4x openai', met: t.above(t.bizmsg) <= 0.4 * openai }),
      row("import('bizmsg/webhooks')", t.webhooks),
      row("import('bizmsg/mock') (msw/node with it)", t.mock),
      row("import('stripe')", t.stripe),
      {
        figure: '2',
        subject: `bare node -e 0, ${node.version}`,
        value: Math.round(t.bare),
        unit: 'ms',
        note: 'the floor subtracted above',
      },
    );
  }
  rows.push(...missingRows('2', missing));
  return rows;
}
