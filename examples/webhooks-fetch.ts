// A fetch-style webhook receiver: the same handler serves Cloudflare Workers, Bun, Deno,
// Hono (`app.post('/webhooks', (c) => handle(c.req.raw))`) and Next.js route handlers
// (`export const POST = handle;` in app/webhooks/route.ts). It verifies with Web Crypto.
import { createWebhookHandler, defineWebhookHandlers } from 'bizmsg/webhooks';

declare const process: { env: Record<string, string | undefined> } | undefined;

// defineWebhookHandlers types each handler's event by its kind, here and wherever the options go.
export const options = defineWebhookHandlers({
  secret: [
    // During a rotation both secrets are accepted; drop the old one once the service uses the new.
    (typeof process !== 'undefined' && process.env.BIZMSG_WEBHOOK_SECRET) || 'whsec_dev',
  ],
  on: {
    'message.delivered': async (event) => {
      console.log(`delivered ${event.data.message_id} at ${event.data.delivered_at}`);
    },
    'conversation.created': (event) => {
      console.log('new conversation', event.data);
    },
  },
});

export const handle = createWebhookHandler(options);

// Workers / Bun: `export default { fetch }`; Deno: `Deno.serve(handle)`.
export default { fetch: handle };
