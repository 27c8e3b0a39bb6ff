// Loads msw/node when it is installed, with top-level await: importing bizmsg/mock must not fail
// without msw. The CommonJS build swaps this file for node-peer.cjs.ts (tsup.config.ts).
import type { MswPeer } from './peer.js';

/** msw for createMockServer, loaded once, when bizmsg/mock is imported. */
export const mswPeer: MswPeer = await Promise.all([import('msw/node'), import('msw/core/http')]).then(
  ([node, core]) => ({ loaded: { setupServer: node.setupServer, http: core.http } }),
  (failed: unknown) => ({ failed }),
);
