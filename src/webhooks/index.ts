// bizmsg/webhooks for runtimes with node:crypto (Node, Bun, Deno): the synchronous functions work.
export * from './entry-exports.js';
export { verifyWebhook } from './verify.js';
export { parseWebhook } from './parse.js';
export { signWebhook } from './sign.js';
