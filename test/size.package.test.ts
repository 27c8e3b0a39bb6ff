import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundledSize, SIZE_LIMITS } from './helpers/bundle-size.js';
import { createPackedProject } from './helpers/packed-project.js';

// Each import bundled alone from the packed package, as a Cloudflare Worker or an Edge function
// bundles it (esbuild, minified, one file, gzip): what a user pays for what they use (issue 43).
// Sizes are deterministic: no margin for a loaded machine is needed.

let project: string;

beforeAll(async () => {
  // zod and ky are bundled into dist; p-throttle is the clients' one runtime dependency left out.
  project = await createPackedProject(inject('tarball'), 'bizmsg-size-', ['p-throttle'], {});
}, 60_000);

afterAll(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
});

const alone = (name: string, entry = 'bizmsg/webhooks') =>
  bundledSize(`export { ${name} } from '${entry}';`, project, { splitting: false });

describe('an import bundled alone', () => {
  it('verifyWebhookAsync: at most 1,500 bytes gzip (one HMAC check, no event parsing, no zod)', async () => {
    expect((await alone('verifyWebhookAsync')).total).toBeLessThanOrEqual(SIZE_LIMITS.verifyWebhookAsync);
  });

  it('createWebhookHandler: at most 8,000 bytes gzip (verification, events, drift check, de-duplication; no zod)', async () => {
    expect((await alone('createWebhookHandler')).total).toBeLessThanOrEqual(SIZE_LIMITS.createWebhookHandler);
  });

  it('verifyWebhook (the Web build: a BizMsgError saying to use verifyWebhookAsync) stays under 1 KB', async () => {
    expect((await alone('verifyWebhook')).total).toBeLessThanOrEqual(1024);
  });

  it('Variant2Client: at most 32 KiB gzip in one file, p-throttle included (the rateLimit option loads it)', async () => {
    const { total } = await alone('Variant2Client', 'bizmsg');
    expect(total).toBeLessThanOrEqual(SIZE_LIMITS.client);
    // A bundle of nearly nothing would pass the bound too: the client is there, whole.
    expect(total).toBeGreaterThan(SIZE_LIMITS.client / 2);
  });
});
