// Run on Node: BIZMSG_API_KEY=... BIZMSG_BASE_URL=.../api/v1 BIZMSG_WEBHOOK_SECRET=... npx tsx server.ts
import { serve } from '@hono/node-server';
import { Variant2Client } from 'bizmsg';
import { createApp } from './app.js';

const app = createApp({
  client: new Variant2Client(), // BIZMSG_API_KEY and BIZMSG_BASE_URL from the environment
  webhookSecret: process.env.BIZMSG_WEBHOOK_SECRET ?? 'whsec_dev',
});
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000) }, ({ port }) =>
  console.log(`POST http://localhost:${port}/messages, webhooks at /webhooks/bizmsg`),
);
