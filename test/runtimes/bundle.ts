import { join } from 'node:path';
import { build } from 'esbuild';
import { consumer } from './helpers.js';

/** Bundles a file of the consumer project for a Web runtime, resolving bizmsg as the runtime's bundler would. */
export async function bundleForWeb(entry: string, conditions: string[]): Promise<string> {
  const outfile = join(consumer, `${entry}.bundle.js`);
  await build({
    entryPoints: [join(consumer, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions,
    target: 'es2022',
    logLevel: 'silent',
  });
  return outfile;
}
