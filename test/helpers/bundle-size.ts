// What an import of the packed package costs a bundle, as a Worker or an Edge function bundles it:
// esbuild, minified, the worker and browser conditions, gzip level 9. Figure 1 (bench/size.ts) and
// test/size.package.test.ts measure the same way.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** gzip bytes of everything emitted (`total`: entry plus lazy chunks) and of the entry file alone. */
export interface BundleSize {
  readonly total: number;
  readonly entry: number;
}

/**
 * min+gzip bytes of `source` bundled from `root` (a project with the package in its node_modules);
 * `splitting: false` inlines lazily loaded chunks into one file, as a single-file bundler does;
 * `external` keeps those imports out (openai and stripe reference node built-ins on some paths).
 */
export async function bundledSize(
  source: string,
  root: string,
  { splitting = true, external = [] }: { splitting?: boolean; external?: readonly string[] } = {},
): Promise<BundleSize> {
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
      external: ['node:*', ...external],
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

/**
 * The limits of issue 43, in bytes: the KB are thousands of bytes (its figures are), so
 * 1.5 KB and 8 KB are 1,500 and 8,000 bytes; the client's limit is written as 32 KiB.
 */
export const SIZE_LIMITS = {
  verifyWebhookAsync: 1500,
  createWebhookHandler: 8000,
  client: 32 * 1024,
} as const;
