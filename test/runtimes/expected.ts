import * as main from '../../src/index.js';
import * as mock from '../../src/mock/index.js';
import * as redis from '../../src/redis/index.js';
import * as webhooks from '../../src/webhooks/index.js';

const EXPORTS: Record<string, string[]> = {
  bizmsg: Object.keys(main).sort(),
  'bizmsg/webhooks': Object.keys(webhooks).sort(),
  'bizmsg/mock': Object.keys(mock).sort(),
  'bizmsg/redis': Object.keys(redis).sort(),
};

/** The entries a user can load, by specifier. */
export type Entry = 'bizmsg' | 'bizmsg/webhooks' | 'bizmsg/mock' | 'bizmsg/redis';

/**
 * What consumer/scenario.mjs must return on a runtime that loaded `entries`, after a reset of
 * the Variant 2 mock it calls: the built entries export exactly what the sources do.
 */
export function expectedScenario(entries: Entry[], options: { sync: boolean }) {
  const event = { message_id: 'msg_1' };
  return {
    exports: Object.fromEntries(entries.map((entry) => [entry, EXPORTS[entry]])),
    client: { contact: 1, listed: ['Ada'], sent: 'msg_1', validation: { name: ['must not be empty'] } },
    webhooks: {
      async: { sign: true, verify: true, verifyWrongSecret: false, parse: event },
      handler: [200, 401],
      ...(options.sync
        ? { sync: { sign: true, verify: true, verifyWrongSecret: false, parse: event } }
        : {
            syncNamesAsync: [
              'verifyWebhook: use verifyWebhookAsync',
              'parseWebhook: use parseWebhookAsync',
              'signWebhook: use signWebhookAsync',
            ],
          }),
    },
    ...(entries.includes('bizmsg/mock') ? { mock: { status: 200 } } : {}),
  };
}
