import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../../src/webhooks/index.js';

type WebMockModule = typeof import('../../src/mock/web.js');
const entries = { browser: await import('../../src/mock/browser.js'), web: await import('../../src/mock/web.js') };

/**
 * Bundles `bizmsg/mock` (the built package, through its exports map) the way a browser bundler
 * and a Workers bundler do, with nothing external, not even msw or `node:*`: a Node built-in
 * anywhere in the import graph fails the build. Then runs it in a context with Web APIs only
 * (for the browser, also the localStorage and MessageEvent a page has, which msw needs outside Node).
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const TARGETS = {
  browser: {
    platform: 'browser',
    conditions: ['browser'],
    file: 'dist/mock/browser.js',
    entry: entries.browser,
    pageGlobals: true,
  },
  workerd: {
    platform: 'neutral',
    conditions: ['workerd', 'worker'],
    file: 'dist/mock/web.js',
    entry: entries.web,
    pageGlobals: false,
  },
} as const;

const bundles = {} as Record<keyof typeof TARGETS, { code: string; inputs: string[] }>;
beforeAll(async () => {
  for (const [name, { platform, conditions }] of Object.entries(TARGETS)) {
    const result = await build({
      stdin: { contents: "export * from 'bizmsg/mock';", resolveDir: root },
      bundle: true,
      platform,
      conditions: [...conditions],
      ...(platform === 'neutral' ? { mainFields: ['module', 'main'] } : {}),
      // The package's exports map, not tsconfig.json's paths to src/, decides what is bundled.
      tsconfigRaw: {},
      format: 'iife',
      globalName: 'bizmsgMock',
      metafile: true,
      write: false,
      logLevel: 'silent',
    });
    bundles[name as keyof typeof TARGETS] = {
      code: result.outputFiles[0]!.text,
      inputs: Object.keys(result.metafile.inputs),
    };
  }
}, 60_000);

/** Loads a bundle where only Web APIs exist, with `fetch` answering webhook deliveries. */
function loadWebOnly(
  target: keyof typeof TARGETS,
  fetch: (url: string, init: RequestInit) => Promise<Response>,
): WebMockModule {
  const storage = new Map<string, string>();
  const localStorage = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, value),
  };
  const webApis = {
    ...(TARGETS[target].pageGlobals ? { localStorage, MessageEvent } : {}),
    crypto,
    TextEncoder,
    TextDecoder,
    Request,
    Response,
    Headers,
    URL,
    URLSearchParams,
    AbortController,
    AbortSignal,
    ReadableStream,
    WritableStream,
    TransformStream,
    Blob,
    FormData,
    EventTarget,
    Event,
    BroadcastChannel,
    MessageChannel,
    setTimeout,
    clearTimeout,
    queueMicrotask,
    structuredClone,
    // Workers and browsers have it (Workers coarsened): the mock times requests and deliveries with it.
    performance,
    atob,
    btoa,
    console,
    fetch,
  };
  expect(runInNewContext('[typeof process, typeof require, typeof Buffer]', webApis)).toEqual([
    'undefined',
    'undefined',
    'undefined',
  ]);
  return runInNewContext(`${bundles[target].code}; bizmsgMock`, webApis) as WebMockModule;
}

const SECRET = 'whsec_web_only';

describe.each(Object.keys(TARGETS) as Array<keyof typeof TARGETS>)('bizmsg/mock bundled for %s', (target) => {
  it('takes its Web build, with no Node built-in, msw/node or node:http server in it', () => {
    const { inputs } = bundles[target];
    expect(inputs.filter((input) => input.startsWith('dist/mock/'))).toEqual([TARGETS[target].file]);
    expect(
      inputs.filter(
        (input) => input.startsWith('node:') || /msw\/lib\/node\/|interceptors\/.*ClientRequest/.test(input),
      ),
    ).toEqual([]);
    // Workers get no msw at all: its core throws on load where there is neither Node nor localStorage.
    expect(inputs.some((input) => input.includes('node_modules/msw/'))).toBe(target === 'browser');
  });

  it('exports the names of its entry', () => {
    const mock = loadWebOnly(target, () => Promise.reject(new Error('no fetch expected')));
    expect(Object.keys(mock).sort()).toEqual(Object.keys(TARGETS[target].entry).sort());
  });

  it('serves Variant 1 through MockService.handle(new Request(...))', async () => {
    const { MockService } = loadWebOnly(target, () => Promise.reject(new Error('no fetch expected')));
    const mock = new MockService({ variant: 1 });
    const response = await mock.handle(
      new Request(`${mock.baseUrl}/contacts/create`, {
        method: 'POST',
        headers: { 'x-api-key': mock.apiKey, 'content-type': 'application/json' },
        body: '{"name":"Ada","phone":"4915112345678"}',
      }),
    );
    expect([response.status, (await response.json()).data.name, mock.store.contacts.length]).toEqual([200, 'Ada', 1]);
    mock.pause();
  });

  it('serves Variant 2 and delivers a webhook signed with Web Crypto to the fetch it finds', async () => {
    const deliveries: Array<{ url: string; body: string; signature: string | null }> = [];
    const { MockService } = loadWebOnly(target, (url, init) => {
      deliveries.push({
        url,
        body: init.body as string,
        signature: new Headers(init.headers).get('x-service-signature'),
      });
      return Promise.resolve(new Response('ok'));
    });
    const mock = new MockService({ variant: 2 });
    const call = (path: string, body: unknown) =>
      mock.handle(
        new Request(`${mock.baseUrl}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    expect(
      (await call('/webhooks', { url: 'https://receiver.test/hook', events: ['contact.created'], secret: SECRET }))
        .status,
    ).toBe(201);
    expect((await call('/contacts', { name: 'Ada', phone: '4915112345678' })).status).toBe(201);
    await mock.clock.settled();
    expect(
      deliveries.map(({ url, signature, body }) => [
        url,
        signature,
        JSON.parse(body).event,
        JSON.parse(body).data.name,
      ]),
    ).toEqual([['https://receiver.test/hook', signWebhook(deliveries[0]!.body, SECRET), 'contact.created', 'Ada']]);
    expect(mock.deliveries.map((d) => [d.event, d.status, d.ok])).toEqual([['contact.created', 200, true]]);
    mock.pause();
  });
});
