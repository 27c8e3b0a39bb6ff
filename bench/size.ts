import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { ratio, type BenchOptions, type Row } from './lib.js';
import { packedProject } from './packed.js';

/**
 * min+gzip bytes of everything esbuild emits for `source` resolved from `root` (entry plus lazily
 * loaded chunks); with `splitting: false` the lazy chunks are inlined into one file.
 */
async function bundledSize(source: string, root: string, splitting = true): Promise<{ total: number; entry: number }> {
  const outdir = mkdtempSync(join(tmpdir(), 'bizmsg-size-'));
  try {
    await build({
      stdin: { contents: source, resolveDir: root, loader: 'js' },
      bundle: true,
      minify: true,
      format: 'esm',
      splitting,
      platform: 'browser',
      conditions: ['worker', 'browser'],
      outdir,
      logLevel: 'error',
      // openai and stripe reference node builtins on some paths; they stay out of all bundles alike.
      external: ['node:*'],
    });
    let total = 0;
    let entry = 0;
    for (const file of readdirSync(outdir)) {
      const size = gzipSync(readFileSync(join(outdir, file)), { level: 9 }).length;
      total += size;
      if (file === 'stdin.js') entry = size;
    }
    return { total, entry };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** The clients' target (issue 34): under 28 KB min+gzip, on the way to 22. */
const CLIENT_TARGET = (bytes: number) => ({ text: '<= 28 KB gzip (goal 22)', met: bytes <= 28 * 1024 });

/** Figure 1: bundle size, min+gzip, for a browser/worker target, of the packed package. */
export async function measureSize(_options: BenchOptions): Promise<Row[]> {
  const root = await packedProject();
  const kb = (bytes: number) => Math.round((bytes / 1024) * 100) / 100;
  const clientSource = "export { Variant2Client } from 'bizmsg';";
  const client = await bundledSize(clientSource, root);
  const oneFile = await bundledSize(clientSource, root, false);
  const webhooks = await bundledSize("import * as w from 'bizmsg/webhooks'; globalThis.x = w;", root);
  const stripe = await bundledSize("import Stripe from 'stripe'; globalThis.x = Stripe;", root);
  const openai = await bundledSize("import OpenAI from 'openai'; globalThis.x = OpenAI;", root);
  const vsOpenai = (bytes: number) => ({ name: 'openai', value: kb(openai.total), ratio: ratio(bytes, openai.total) });
  return [
    {
      figure: '1',
      subject: 'Variant2Client, all chunks (ky loaded at the first request, p-throttle with the rateLimit option)',
      value: kb(client.total),
      unit: 'KB',
      baseline: vsOpenai(client.total),
      target: CLIENT_TARGET(client.total),
    },
    {
      figure: '1',
      subject: 'Variant2Client, one file (splitting off: ky and p-throttle inlined)',
      value: kb(oneFile.total),
      unit: 'KB',
      baseline: vsOpenai(oneFile.total),
      target: CLIENT_TARGET(oneFile.total),
    },
    {
      figure: '1',
      subject: 'bizmsg/webhooks, whole entry',
      value: kb(webhooks.total),
      unit: 'KB',
      baseline: vsOpenai(webhooks.total),
      target: { text: '<= 20 KB gzip', met: webhooks.total <= 20 * 1024 },
    },
    {
      figure: '1',
      subject: 'stripe, built the same way',
      value: kb(stripe.total),
      unit: 'KB',
      baseline: vsOpenai(stripe.total),
    },
    { figure: '1', subject: 'openai, built the same way', value: kb(openai.total), unit: 'KB' },
  ];
}
