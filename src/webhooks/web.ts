// bizmsg/webhooks on Web APIs only (Workers, browsers): the synchronous functions throw, naming their async
// twins, and so does fileStatusStore (it needs Node's file system), naming the stores that work here.
export * from './entry-exports.js';
export { verifyWebhook, parseWebhook, signWebhook } from './web-sync.js';
export { fileStatusStore } from './status/file-store-web.js';
