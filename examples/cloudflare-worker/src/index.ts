// A Cloudflare Worker: POST /webhooks/bizmsg receives the service's webhooks, and answers an
// incoming message with a reply sent after the response (ctx.waitUntil).
// Secrets: `wrangler secret put BIZMSG_API_KEY` and `wrangler secret put BIZMSG_WEBHOOK_SECRET`.
import { Variant2Client } from 'bizmsg';
import { createWebhookHandler } from 'bizmsg/webhooks';

/** The Worker's bindings (wrangler.toml [vars] and secrets). */
export interface Env {
  BIZMSG_API_KEY: string;
  BIZMSG_BASE_URL: string;
  BIZMSG_WEBHOOK_SECRET: string;
}

/** The part of the Workers ExecutionContext this Worker uses (@cloudflare/workers-types has it all). */
export interface Context {
  waitUntil(promise: Promise<unknown>): void;
}

export default {
  async fetch(request: Request, env: Env, ctx: Context): Promise<Response> {
    if (new URL(request.url).pathname !== '/webhooks/bizmsg') return new Response('Not found', { status: 404 });
    // Workers have no process.env: the client gets its key and URL from the bindings.
    const client = new Variant2Client({ apiKey: env.BIZMSG_API_KEY, baseUrl: env.BIZMSG_BASE_URL });
    const receive = createWebhookHandler({
      secret: env.BIZMSG_WEBHOOK_SECRET,
      on: {
        'message.received': ({ data }) => {
          // `from` is bizmsg's guess of where the customer's number is (digits): without it there is no one to answer.
          if (typeof data.from !== 'string') return;
          ctx.waitUntil(
            client.messages.sendText({
              to: data.from,
              body: 'Thanks, we will get back to you.',
              messaging_account_id: 1,
            }),
          );
        },
      },
    });
    // Verified with Web Crypto on the raw body; the answer goes out before the reply is sent.
    return receive(request);
  },
};
