// bizmsg/webhooks for runtimes with node:crypto (Node, Bun, Deno): the synchronous functions and fileStatusStore work.
export * from './entry-exports.js';
export { verifyWebhook } from './signature/verify.js';
export { parseWebhook } from './events/parse.js';
export { signWebhook } from './signature/sign.js';
export { fileStatusStore } from './status/file-store.js';
