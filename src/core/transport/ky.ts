// ky, loaded at a client's first request instead of with the package.

/** The parts of ky the transport uses. */
export type KyParts = typeof import('./ky-parts.js');

let loading: Promise<KyParts> | undefined;

/**
 * ky, imported once per process when the first request is sent. Evaluating ky builds a `Request`
 * to learn whether request streams work, and on Node that loads the whole of fetch (undici, ~25 ms
 * on a 2-core machine) at `import('bizmsg')`, before anyone asked for a request. The chunk holds
 * only what `ky-parts.ts` names, so bundles keep no more of ky than a static import did.
 */
export function loadKy(): Promise<KyParts> {
  loading ??= import('./ky-parts.js');
  return loading;
}
