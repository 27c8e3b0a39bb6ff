import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../../src/webhooks/index.js';

type WebhooksModule = typeof import('../../src/webhooks/index.js');
let edge: WebhooksModule;

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
    format: 'iife',
    globalName: 'bizmsgWebhooks',
    write: false,
    logLevel: 'silent',
  });
  const webApis = { crypto, TextEncoder, TextDecoder, Request, Response, Headers, URL, ArrayBuffer, Uint8Array, DataView, console };
  edge = runInNewContext(`${result.outputFiles[0]!.text}; bizmsgWebhooks`, webApis) as WebhooksModule;
});

const SECRET = 'whsec_edge';
const body = JSON.stringify({ event: 'message.read', timestamp: '2026-11-21T10:00:00Z', data: { message_id: 'msg_1' } });

describe('bizmsg/webhooks on a Web-API-only runtime', () => {
  it('bundles without Node built-ins and verifies with Web Crypto', async () => {
    expect(await edge.verifyWebhookAsync(body, signWebhook(body, SECRET), SECRET)).toBe(true);
    expect(await edge.verifyWebhookAsync(body, signWebhook(body, 'other'), SECRET)).toBe(false);
    const event = await edge.parseWebhookAsync(body, signWebhook(body, SECRET), [SECRET, 'old']);
    expect(event.event).toBe('message.read');
  });

  it('serves the fetch handler', async () => {
    const seen: string[] = [];
    const handler = edge.createWebhookHandler({ secret: SECRET, on: { 'message.read': (e) => void seen.push(String(e.data.message_id)) } });
    const response = await handler(new Request('https://worker.test/hooks', { method: 'POST', body, headers: { 'X-Service-Signature': signWebhook(body, SECRET) } }));
    expect([response.status, seen]).toEqual([200, ['msg_1']]);
  });

  it('says what to use instead when the sync functions are called there', () => {
    expect(() => edge.verifyWebhook(body, signWebhook(body, SECRET), SECRET)).toThrow(
      'verifyWebhook needs node:crypto (Node >= 20.16, Bun or Deno); on other runtimes use verifyWebhookAsync / parseWebhookAsync.',
    );
  });
});
