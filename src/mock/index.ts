// bizmsg/mock for Node, Bun and Deno: msw's setupServer and a real HTTP server; web.ts is the build for browsers and Workers.
export * from './entry-exports.js';
export { createMockServer, MockServer } from './msw/server.js';
export { startMockHttpServer } from './http/server.js';
export type { MockHttpServer, MockHttpServerOptions } from './http/server.js';
