// A Fastify app that sends messages through bizmsg and receives its webhooks.
import Fastify, { type FastifyInstance } from 'fastify';
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
}: AppOptions): FastifyInstance {
  const app = Fastify();

  // An encapsulated plugin, so that only the webhook route keeps its body as raw bytes (the
  // signature covers them exactly); every other route still gets parsed JSON.
  app.register(async (webhooks) => {
    webhooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    const receive = webhookMiddleware({
      secret: webhookSecret,
      on: {
        'message.delivered': (event) => log(`message ${event.data.message_id} delivered at ${event.data.delivered_at}`),
        'message.failed': (event) => log(`message failed: ${JSON.stringify(event.data)}`),
      },
    });
    webhooks.post('/webhooks/bizmsg', async (request, reply) => {
      reply.hijack(); // webhookMiddleware answers on the Node response itself
      await receive(Object.assign(request.raw, { body: request.body }), reply.raw);
    });
  });

  app.post<{ Body: { to: string; body: string } }>('/messages', async (request, reply) => {
    try {
      const message = await client.messages.sendText({ ...request.body, messaging_account_id: messagingAccountId });
      return reply.code(201).send({ id: message.id, status: message.status });
    } catch (error) {
      if (error instanceof ValidationError) return reply.code(422).send({ error: error.details });
      if (error instanceof ApiError) return reply.code(502).send({ error: error.code });
      throw error;
    }
  });

  return app;
}
