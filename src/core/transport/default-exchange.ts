// The clients' default exchange: `globalThis.fetch`, read at each attempt so that interceptors apply.
import { fetchExchange, type Exchange } from './exchange.js';

/**
 * The exchange of a client without the `fetch` option: `globalThis.fetch` read at each attempt, so
 * that msw and other interceptors installed after the client was made still apply. The Node build
 * swaps this file for `default-exchange.node.ts` (tsup.config.ts); `direct` is what that one reads.
 */
export function defaultExchange(_direct: boolean): Exchange {
  return fetchExchange((input, init) => globalThis.fetch(input, init));
}
