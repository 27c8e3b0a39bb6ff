// bizmsg/mock for Node, Bun and Deno: msw's setupServer and a real HTTP server; web.ts is the build for browsers and Workers.
export * from './entry-exports.js';
export { createMockServer, MockServer } from './msw/server.js';
export { startMockHttpServer } from './http/server.js';
export type { MockHttpServer, MockHttpServerOptions } from './http/server.js';
export { startMockProxy, startMockReplay } from './traffic/start.js';
export type { MockProxy, MockProxyOptions } from './traffic/proxy.js';
export type { MockReplay, MockReplayOptions, ReplayMiss } from './traffic/replay.js';
export type { MockTrafficServer, TrafficOptions } from './traffic/serve.js';
export type { DriftFinding, ProxyDriftReport } from './traffic/findings.js';
