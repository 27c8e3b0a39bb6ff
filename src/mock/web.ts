// bizmsg/mock on Web APIs alone (Workers and other runtimes without Node built-ins): MockService, no msw, whose
// core needs localStorage or Node to load. browser.ts adds msw's Service Worker; index.ts msw/node and an HTTP server.
export * from './entry-exports.js';
