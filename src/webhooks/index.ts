// bizmsg/webhooks for runtimes with node:crypto (Node, Bun, Deno): the synchronous functions work.
export * from './entry-exports.js';
export { verifyWebhook } from './signature/verify.js';
export { parseWebhook } from './events/parse.js';
export { signWebhook } from './signature/sign.js';
