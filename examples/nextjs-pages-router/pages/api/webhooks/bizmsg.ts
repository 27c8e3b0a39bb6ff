// pages/api/webhooks/bizmsg.ts: the service POSTs its webhooks here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { webhookMiddleware } from 'bizmsg/webhooks';

// Next's body parser would turn the body into an object; the signature needs the raw bytes,
// which webhookMiddleware reads itself.
export const config = { api: { bodyParser: false } };

let receive: ReturnType<typeof webhookMiddleware> | undefined;

// NextApiRequest and NextApiResponse extend these Node types; webhookMiddleware needs no more.
export default function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Created on the first request, not at import: `next build` imports API routes without your
  // runtime environment, and a handler without a secret throws.
  receive ??= webhookMiddleware({
    secret: process.env.BIZMSG_WEBHOOK_SECRET ?? '',
    on: {
      'message.delivered': (event) =>
        console.log(`message ${event.data.message_id} delivered at ${event.data.delivered_at}`),
      'message.failed': (event) => console.warn('message failed', event.data),
    },
  });
  return receive(req, res);
}
