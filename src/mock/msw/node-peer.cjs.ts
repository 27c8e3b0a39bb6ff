// node-peer.ts for the CommonJS build, which has no top-level await: msw/node with require, when it
// is installed. tsup.config.ts puts this file in place of node-peer.ts; tests run node-peer.ts.
import type { MswNode, MswPeer } from './peer.js';

/** msw for createMockServer, loaded once, when bizmsg/mock is required. */
export const mswPeer: MswPeer = load();

function load(): MswPeer {
  try {
    /* eslint-disable @typescript-eslint/no-require-imports -- CommonJS loads optional peers with require */
    const { setupServer } = require('msw/node') as Pick<MswNode, 'setupServer'>;
    const { http } = require('msw/core/http') as Pick<MswNode, 'http'>;
    /* eslint-enable @typescript-eslint/no-require-imports */
    return { loaded: { setupServer, http } };
  } catch (failed) {
    return { failed };
  }
}
