// Receive bizmsg webhooks in Express. Run: npx tsx examples/webhooks-express.ts
import express from 'express';
import { defineWebhookHandlers, webhookMiddleware } from 'bizmsg/webhooks';

// Written apart from webhookMiddleware(...), the options keep their types through defineWebhookHandlers.
const options = defineWebhookHandlers({
  secret: process.env.BIZMSG_WEBHOOK_SECRET ?? 'whsec_dev',
  on: {
    'message.delivered': (event) => {
      console.log(`message ${event.data.message_id} delivered to ${event.data.to} at ${event.data.delivered_at}`);
    },
    'message.failed': (event) => {
      console.warn('message failed', event.data);
    },
  },
  onEvent: (event) => console.log(`received ${event.event} (${event.timestamp})`),
});

const app = express();

// The webhook route comes BEFORE express.json(): the signature covers the raw bytes, which a
// JSON body parser would consume. (Alternatively: app.post(path, express.raw({ type: 'application/json' }), ...).)
app.post('/webhooks/bizmsg', webhookMiddleware(options));

app.use(express.json());
app.get('/health', (_req, res) => res.json({ ok: true }));

const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`listening on http://localhost:${port}/webhooks/bizmsg`));
