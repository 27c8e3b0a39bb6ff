// A Hono app that sends messages through bizmsg and receives its webhooks. server.ts runs it on
// Node; elsewhere serve its fetch: `export default createApp({...})` on Bun and Cloudflare
// Workers, `Deno.serve(createApp({...}).fetch)` on Deno.
import { Hono } from 'hono';
import { ApiError, ValidationError, type Variant2Client } from 'bizmsg';
import { createWebhookHandler } from 'bizmsg/webhooks';

export interface AppOptions {
  client: Variant2Client;
  webhookSecret: string;
  messagingAccountId?: number;
  log?: (line: string) => void;
}

export function createApp({ client, webhookSecret, messagingAccountId = 1, log = console.log }: AppOptions): Hono {
  const app = new Hono();

  const receive = createWebhookHandler({
    secret: webhookSecret,
    on: {
      'message.delivered': (event) => log(`message ${event.data.message_id} delivered at ${event.data.delivered_at}`),
      'message.failed': (event) => log(`message failed: ${JSON.stringify(event.data)}`),
    },
  });
  // c.req.raw is the untouched Request: never read it with c.req.json() first, the signature
  // covers the raw bytes.
  app.post('/webhooks/bizmsg', (c) => receive(c.req.raw));

  app.post('/messages', async (c) => {
    const { to, body } = await c.req.json<{ to: string; body: string }>();
    try {
      const message = await client.messages.sendText({ to, body, messaging_account_id: messagingAccountId });
      return c.json({ id: message.id, status: message.status }, 201);
    } catch (error) {
      if (error instanceof ValidationError) return c.json({ error: error.details }, 422);
      if (error instanceof ApiError) return c.json({ error: error.code }, 502);
      throw error;
    }
  });

  return app;
}
