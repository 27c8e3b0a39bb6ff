// The proxy and the replay as bizmsg/mock exports them: each loaded at its first call, so that
// importing bizmsg/mock costs nothing for them.
import type { MockProxy, MockProxyOptions } from './proxy.js';
import type { MockReplay, MockReplayOptions } from './replay.js';

/**
 * Starts a proxy to the real service on `127.0.0.1`: its `baseUrl` (ending with `/api/v1`) forwards each
 * request to `target` and the answer back unchanged (bytes, status, headers), checks every exchange
 * against the variant's contract (`drift()`, `GET /_bizmsg/drift`), and with `record` writes each
 * exchange, redacted, into that folder.
 *
 * @example
 * ```ts
 * const proxy = await startMockProxy({ target: 'https://api.example.com/api/v1', variant: 2, record: 'recordings' });
 * // point the app at proxy.baseUrl, run it, then:
 * console.log(proxy.drift().findings);
 * await proxy.close();
 * ```
 */
export async function startMockProxy(options: MockProxyOptions): Promise<MockProxy> {
  const { startProxy } = await import('./proxy.js');
  return startProxy(options);
}

/**
 * Serves a recording made by `startMockProxy({ record })` (or `bizmsg-mock proxy --record`) on
 * `127.0.0.1`, offline: identical requests get the recorded answers in recorded order (the last one
 * repeating), and a request with no recording gets 501 `NO_RECORDING` naming the closest one.
 *
 * @example
 * ```ts
 * const replay = await startMockReplay({ recording: 'recordings', redactionKey: process.env.BIZMSG_REDACTION_KEY });
 * const client = new Variant2Client({ apiKey: 'sk_test', baseUrl: replay.baseUrl });
 * ```
 */
export async function startMockReplay(options: MockReplayOptions): Promise<MockReplay> {
  const { startReplay } = await import('./replay.js');
  return startReplay(options);
}
