// An Express app that sends messages through bizmsg and receives its webhooks.
import express from 'express';
import { ApiError, ValidationError, type Variant2Client } from 'bizmsg';
import { webhookMiddleware } from 'bizmsg/webhooks';

export interface AppOptions {
  client: Variant2Client;
  webhookSecret: string;
  messagingAccountId?: number;
  log?: (line: string) => void;
}

export function createApp({
  client,
  webhookSecret,
  messagingAccountId = 1,
  log = console.log,
}: AppOptions): express.Express {
  const app = express();

  // The webhook route comes BEFORE express.json(): the signature covers the raw bytes, which a
  // JSON body parser would consume. (Or give the route express.raw({ type: 'application/json' }).)
  app.post(
    '/webhooks/bizmsg',
    webhookMiddleware({
      secret: webhookSecret,
      on: {
        'message.delivered': (event) => log(`message ${event.data.message_id} delivered at ${event.data.delivered_at}`),
        'message.failed': (event) => log(`message failed: ${JSON.stringify(event.data)}`),
      },
    }),
  );

  app.use(express.json());

  app.post('/messages', async (req, res) => {
    const { to, body } = req.body as { to: string; body: string };
    try {
      const message = await client.messages.sendText({ to, body, messaging_account_id: messagingAccountId });
      res.status(201).json({ id: message.id, status: message.status });
    } catch (error) {
      if (error instanceof ValidationError) res.status(422).json({ error: error.details });
      else if (error instanceof ApiError) res.status(502).json({ error: error.code });
      else throw error;
    }
  });

  return app;
}
