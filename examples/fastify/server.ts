// Run: BIZMSG_API_KEY=... BIZMSG_BASE_URL=.../api/v1 BIZMSG_WEBHOOK_SECRET=... npx tsx server.ts
import { Variant2Client } from 'bizmsg';
import { createApp } from './app.js';

const app = createApp({
  client: new Variant2Client(), // BIZMSG_API_KEY and BIZMSG_BASE_URL from the environment
  webhookSecret: process.env.BIZMSG_WEBHOOK_SECRET ?? 'whsec_dev',
});
const address = await app.listen({ port: Number(process.env.PORT ?? 3000) });
console.log(`POST ${address}/messages, webhooks at /webhooks/bizmsg`);
