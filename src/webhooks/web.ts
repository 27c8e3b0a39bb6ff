// bizmsg/webhooks on Web APIs only (Workers, browsers): the synchronous functions throw, naming their async twins.
export * from './entry-exports.js';
export { verifyWebhook, parseWebhook, signWebhook } from './web-sync.js';
