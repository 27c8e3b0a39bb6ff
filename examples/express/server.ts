// Run: BIZMSG_API_KEY=... BIZMSG_BASE_URL=.../api/v1 BIZMSG_WEBHOOK_SECRET=... npx tsx server.ts
// (or against the mock: npx bizmsg-mock --port 4010, then BIZMSG_BASE_URL=http://127.0.0.1:4010/api/v1)
import { Variant2Client } from 'bizmsg';
import { createApp } from './app.js';

const app = createApp({
  client: new Variant2Client(), // BIZMSG_API_KEY and BIZMSG_BASE_URL from the environment
  webhookSecret: process.env.BIZMSG_WEBHOOK_SECRET ?? 'whsec_dev',
});
const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`POST http://localhost:${port}/messages, webhooks at /webhooks/bizmsg`));
