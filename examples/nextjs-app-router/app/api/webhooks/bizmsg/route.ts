// app/api/webhooks/bizmsg/route.ts: the service POSTs its webhooks here.
import { createWebhookHandler } from 'bizmsg/webhooks';

let receive: ((request: Request) => Promise<Response>) | undefined;

// Created on the first request, not at import: `next build` imports route modules without your
// runtime environment, and a handler without a secret throws.
function receiver(): (request: Request) => Promise<Response> {
  receive ??= createWebhookHandler({
    secret: process.env.BIZMSG_WEBHOOK_SECRET ?? '',
    on: {
      'message.delivered': (event) =>
        console.log(`message ${event.data.message_id} delivered at ${event.data.delivered_at}`),
      'message.failed': (event) => console.warn('message failed', event.data),
    },
  });
  return receive;
}

// The Request reaches the handler untouched, so it verifies the raw bytes. Never call
// request.json() before it: JSON.stringify(JSON.parse(body)) is not the body that was signed.
export function POST(request: Request): Promise<Response> {
  return receiver()(request);
}
