import * as main from '../../src/index.js';
import * as mockBrowser from '../../src/mock/browser.js';
import * as mock from '../../src/mock/index.js';
import * as mockWeb from '../../src/mock/web.js';
import * as redis from '../../src/redis/index.js';
import * as webhooks from '../../src/webhooks/index.js';
import * as webhooksWeb from '../../src/webhooks/web.js';

/** The entries a user can load, by specifier. */
export type Entry = 'bizmsg' | 'bizmsg/webhooks' | 'bizmsg/mock' | 'bizmsg/redis';

/**
 * Which builds a runtime's export conditions pick: `node` (Node, Bun, Deno), `web` (workerd,
 * `workerd`/`worker`) or `browser` (a page bundled with the `browser` condition).
 */
export type Build = 'node' | 'web' | 'browser';

const names = (module: object) => Object.keys(module).sort();
// Workers and browsers do not load bizmsg/redis: the Redis clients it takes need Node's sockets.
const EXPORTS: Record<Build, Partial<Record<Entry, string[]>>> = {
  node: {
    bizmsg: names(main),
    'bizmsg/webhooks': names(webhooks),
    'bizmsg/mock': names(mock),
    'bizmsg/redis': names(redis),
  },
  web: { bizmsg: names(main), 'bizmsg/webhooks': names(webhooksWeb), 'bizmsg/mock': names(mockWeb) },
  browser: { bizmsg: names(main), 'bizmsg/webhooks': names(webhooksWeb), 'bizmsg/mock': names(mockBrowser) },
};

/**
 * What consumer/scenario.mjs must return on a runtime that loaded `entries` from `build`, when
 * the Variant 2 mock it calls starts empty: the built entries export exactly what the sources
 * do, and the mock loaded in the runtime answers the client as the one it called did (also
 * through msw/node where the build has it).
 */
export function expectedScenario(entries: Entry[], build: Build) {
  const event = { message_id: 'msg_1', to: '4915112345678', status: 'read' };
  const client = { contact: 1, listed: ['Ada'], sent: 'msg_1', validation: { name: ['must not be empty'] } };
  return {
    exports: Object.fromEntries(entries.map((entry) => [entry, EXPORTS[build][entry]])),
    client,
    webhooks: {
      async: { sign: true, verify: true, verifyWrongSecret: false, parse: event },
      handler: [200, 401],
      ...(build === 'node'
        ? { sync: { sign: true, verify: true, verifyWrongSecret: false, parse: event } }
        : {
            syncNamesAsync: [
              'verifyWebhook: use verifyWebhookAsync',
              'parseWebhook: use parseWebhookAsync',
              'signWebhook: use signWebhookAsync',
            ],
          }),
    },
    ...(entries.includes('bizmsg/mock')
      ? { mock: build === 'node' ? { service: client, msw: client } : { service: client } }
      : {}),
  };
}
