import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import * as node from '../../src/webhooks/index.js';
import { signWebhook } from '../../src/webhooks/index.js';

type WebhooksModule = typeof import('../../src/webhooks/index.js');
let edge: WebhooksModule;
let bundled: string;
const webApis = {
  crypto,
  TextEncoder,
  TextDecoder,
  Request,
  Response,
  Headers,
  URL,
  ArrayBuffer,
  Uint8Array,
  DataView,
  console,
  // Timers are Web APIs too (every runtime has them); the receivers' default de-duplication bounds its store call with one.
  setTimeout,
  clearTimeout,
};

/**
 * Bundles `bizmsg/webhooks` (the built package) for a browser/worker target with nothing
 * external, and loads it in a context that has only Web APIs: no process, require or Buffer.
 */
beforeAll(async () => {
  const result = await build({
    stdin: { contents: "export * from 'bizmsg/webhooks';", resolveDir: new URL('../..', import.meta.url).pathname },
    bundle: true,
    platform: 'browser',
    conditions: ['worker', 'browser'],
    // The package's exports map, not tsconfig.json's paths to src/, decides what is bundled.
    tsconfigRaw: {},
    format: 'iife',
    globalName: 'bizmsgWebhooks',
    write: false,
    logLevel: 'silent',
  });
  bundled = result.outputFiles[0]!.text;
  edge = runInNewContext(`${bundled}; bizmsgWebhooks`, webApis) as WebhooksModule;
});

const SECRET = 'whsec_edge';
const body = JSON.stringify({
  event: 'message.read',
  // Fresh: the receivers refuse a delivery older than 27 h by default.
  timestamp: new Date().toISOString(),
  data: { message_id: 'msg_1', to: '4915112345678', status: 'read' },
});

describe('bizmsg/webhooks on a Web-API-only runtime', () => {
  it('bundles without Node built-ins and verifies with Web Crypto', async () => {
    expect(await edge.verifyWebhookAsync(body, signWebhook(body, SECRET), SECRET)).toBe(true);
    expect(await edge.verifyWebhookAsync(body, signWebhook(body, 'other'), SECRET)).toBe(false);
    const event = await edge.parseWebhookAsync(body, signWebhook(body, SECRET), [SECRET, 'old']);
    expect(event.event).toBe('message.read');
  });

  it('works where SharedArrayBuffer is not defined (a browser page that is not cross-origin isolated)', async () => {
    const page = runInNewContext(`delete globalThis.SharedArrayBuffer; ${bundled}; bizmsgWebhooks`, {
      ...webApis,
    }) as WebhooksModule;
    const bytes = new TextEncoder().encode(body);
    expect(await page.verifyWebhookAsync(bytes, signWebhook(body, SECRET), SECRET)).toBe(true);
    const handler = page.createWebhookHandler({ secret: SECRET, on: {} });
    const response = await handler(
      new Request('https://page.test/hooks', {
        method: 'POST',
        body,
        headers: { 'X-Service-Signature': signWebhook(body, SECRET) },
      }),
    );
    expect(response.status).toBe(200);
  });

  it('serves the fetch handler', async () => {
    const seen: string[] = [];
    const handler = edge.createWebhookHandler({
      secret: SECRET,
      on: { 'message.read': (e) => void seen.push(String(e.data.message_id)) },
    });
    const response = await handler(
      new Request('https://worker.test/hooks', {
        method: 'POST',
        body,
        headers: { 'X-Service-Signature': signWebhook(body, SECRET) },
      }),
    );
    expect([response.status, seen]).toEqual([200, ['msg_1']]);
  });

  it('answers 500 naming the fix to a Request whose body was already read, as the node:crypto build does', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const answers = [];
    for (const createWebhookHandler of [edge.createWebhookHandler, node.createWebhookHandler]) {
      const request = new Request('https://worker.test/hooks', {
        method: 'POST',
        body,
        headers: { 'X-Service-Signature': signWebhook(body, SECRET) },
      });
      await request.text();
      const response = await createWebhookHandler({ secret: SECRET })(request);
      answers.push([response.status, await response.json()]);
    }
    expect(answers[0]![0]).toBe(500);
    expect(answers[0]).toEqual(answers[1]);
    expect(log).toHaveBeenCalledTimes(2);
  });

  it('signs with Web Crypto, as the node:crypto build does', async () => {
    expect(await edge.signWebhookAsync(body, SECRET)).toBe(signWebhook(body, SECRET));
    expect(await edge.signWebhookAsync(body, SECRET, { prefix: false })).toBe(
      signWebhook(body, SECRET, { prefix: false }),
    );
  });

  it.each([
    ['verifyWebhook', 'verifyWebhookAsync', () => edge.verifyWebhook(body, signWebhook(body, SECRET), SECRET)],
    ['parseWebhook', 'parseWebhookAsync', () => edge.parseWebhook(body, signWebhook(body, SECRET), SECRET)],
    ['signWebhook', 'signWebhookAsync', () => edge.signWebhook(body, SECRET)],
  ])('%s says to use %s there, with a BizMsgError', (name, instead, call) => {
    expect(call).toThrow(edge.BizMsgError);
    expect(call).toThrow(
      `${name} is synchronous and needs node:crypto, which this runtime does not have (it loaded the Web build of bizmsg/webhooks). ` +
        `Use \`await ${instead}(...)\` (Web Crypto) instead, or createWebhookHandler, which verifies for you.`,
    );
  });
});
