import { execFileSync } from 'node:child_process';
import { alternate, ratio, type BenchOptions, type Row } from './lib.js';

/** Wall time (ms) of one fresh node process running `code` as ESM. */
function run(code: string, root: string): number {
  const started = performance.now();
  execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: 'ignore' });
  return performance.now() - started;
}

/** Figure 2: cold import cost above bare node, median of alternating runs. */
export async function measureImport({ quick, root }: BenchOptions): Promise<Row[]> {
  const times = await alternate(quick ? 5 : 21, {
    bare: () => run('0', root),
    bizmsg: () => run("await import('bizmsg')", root),
    webhooks: () => run("await import('bizmsg/webhooks')", root),
    openai: () => run("await import('openai')", root),
    stripe: () => run("await import('stripe')", root),
  });
  const above = (ms: number) => Math.round((ms - times.bare) * 10) / 10;
  const openai = above(times.openai);
  const row = (subject: string, ms: number, target?: Row['target']): Row => ({
    figure: '2',
    subject,
    value: above(ms),
    unit: 'ms',
    baseline: { name: 'openai', value: openai, ratio: ratio(above(ms), openai) },
    ...(target ? { target } : {}),
  });
  return [
    row("import('bizmsg')", times.bizmsg, { text: '<= 0.4x openai', met: above(times.bizmsg) <= 0.4 * openai }),
    row("import('bizmsg/webhooks')", times.webhooks),
    row("import('stripe')", times.stripe),
    {
      figure: '2',
      subject: 'bare node -e 0',
      value: Math.round(times.bare),
      unit: 'ms',
      note: 'the floor subtracted above',
    },
  ];
}
