import { bundledSize, SIZE_LIMITS } from '../test/helpers/bundle-size.js';
import { ratio, type BenchOptions, type Row } from './lib.js';
import { packedProject } from './packed.js';

/** The clients' limit (issue 43): not past 32 KiB min+gzip, bundled alone into one file. */
const CLIENT_TARGET = (bytes: number) => ({ text: '<= 32 KiB (32,768 bytes) gzip', met: bytes <= SIZE_LIMITS.client });

/** Figure 1: bundle size, min+gzip, for a browser/worker target, of the packed package. */
export async function measureSize(_options: BenchOptions): Promise<Row[]> {
  const root = await packedProject();
  const kb = (bytes: number) => Math.round((bytes / 1024) * 100) / 100;
  const clientSource = "export { Variant2Client } from 'bizmsg';";
  const client = await bundledSize(clientSource, root);
  const oneFile = await bundledSize(clientSource, root, { splitting: false });
  const withoutThrottle = await bundledSize(clientSource, root, { splitting: false, external: ['p-throttle'] });
  const webhooks = await bundledSize("import * as w from 'bizmsg/webhooks'; globalThis.x = w;", root);
  const alone = (name: string) => bundledSize(`export { ${name} } from 'bizmsg/webhooks';`, root, { splitting: false });
  const verifyAsync = await alone('verifyWebhookAsync');
  const handler = await alone('createWebhookHandler');
  const stripe = await bundledSize("import Stripe from 'stripe'; globalThis.x = Stripe;", root);
  const openai = await bundledSize("import OpenAI from 'openai'; globalThis.x = OpenAI;", root);
  const vsOpenai = (bytes: number) => ({ name: 'openai', value: kb(openai.total), ratio: ratio(bytes, openai.total) });
  return [
    {
      figure: '1',
      subject:
        'Variant2Client, all chunks, Web build (ky loaded at the first request, p-throttle with the rateLimit option)',
      value: kb(client.total),
      unit: 'KB',
      baseline: vsOpenai(client.total),
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
      subject: 'Variant2Client, one file, p-throttle left out (what the rateLimit option adds: 1 file of its own)',
      value: kb(withoutThrottle.total),
      unit: 'KB',
      baseline: vsOpenai(withoutThrottle.total),
    },
    {
      figure: '1',
      subject: "verifyWebhookAsync alone (export { verifyWebhookAsync } from 'bizmsg/webhooks')",
      value: verifyAsync.total,
      unit: 'bytes',
      target: { text: '<= 1,500 bytes gzip', met: verifyAsync.total <= SIZE_LIMITS.verifyWebhookAsync },
    },
    {
      figure: '1',
      subject: 'createWebhookHandler alone',
      value: handler.total,
      unit: 'bytes',
      target: { text: '<= 8,000 bytes gzip', met: handler.total <= SIZE_LIMITS.createWebhookHandler },
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
