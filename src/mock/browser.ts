// bizmsg/mock in a browser page: web.ts plus a mock served by msw's Service Worker (setupWorker).
export * from './entry-exports.js';
export { createMockWorker, MockWorker } from './msw/worker.js';
