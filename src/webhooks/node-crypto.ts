type NodeCrypto = typeof import('node:crypto');

let cached: NodeCrypto | undefined;

/**
 * node:crypto, found at call time rather than imported, so that this entry also loads where
 * only Web Crypto exists (Workers, browsers) as long as the sync functions are not called.
 */
export function nodeCrypto(caller: string): NodeCrypto {
  cached ??= findNodeCrypto();
  if (cached === undefined) {
    throw new Error(
      `${caller} needs node:crypto (Node >= 20.16, Bun or Deno); on other runtimes use verifyWebhookAsync / parseWebhookAsync.`,
    );
  }
  return cached;
}

function findNodeCrypto(): NodeCrypto | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const builtin = process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
  if (builtin !== undefined) return builtin;
  try {
    // The CommonJS build can still require it on Node 20.0 to 20.15; in ESM this throws.
    return require('node:crypto') as NodeCrypto;
  } catch {
    return undefined;
  }
}
