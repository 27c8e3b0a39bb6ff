// msw as an optional peer on Node, Bun and Deno: what createMockServer needs of it, and the error
// that says to install it. node-peer.ts (ESM) and node-peer.cjs.ts (CommonJS) load it.
import type { http } from 'msw/core/http';
import type { setupServer } from 'msw/node';
import { BizMsgError } from '../../shared/errors.js';

/** The parts of msw createMockServer uses. */
export interface MswNode {
  readonly setupServer: typeof setupServer;
  readonly http: typeof http;
}

/** msw loaded, or why it could not be (not installed, most often). */
export type MswPeer = { readonly loaded: MswNode } | { readonly failed: unknown };

/** The loaded msw, or an error that says to install it (startMockHttpServer, connectMock and bizmsg-mock do without). */
export function loadedMsw(peer: MswPeer): MswNode {
  if ('loaded' in peer) return peer.loaded;
  throw new BizMsgError(
    'createMockServer needs msw, an optional peer dependency of bizmsg: npm install --save-dev msw@^2.11. ' +
      '(startMockHttpServer, connectMock and the bizmsg-mock command work without it.)',
    { cause: peer.failed },
  );
}
