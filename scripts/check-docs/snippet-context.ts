// What the documentation's snippets take from their surroundings, declared once, so that a
// snippet compiles as written. A snippet that declares one of these names itself shadows it
// (each snippet is its own module).
import type { Express, Request } from 'express';
import type { Variant2Client } from 'bizmsg';
import type { WebhookHandlers } from 'bizmsg/webhooks';

declare global {
  /** A client created earlier on the page. */
  const client: Variant2Client;
  /** Express's app, or a node:http-style router. */
  const app: Express;
  /** The incoming webhook request of the surrounding handler. */
  const request: Request;
  /** The webhook's raw body, exactly as received. */
  const rawBody: string | Buffer;
  /** The X-Service-Signature header's value. */
  const signature: string;
  /** Webhook secrets. */
  const secret: string;
  const newSecret: string;
  const oldSecret: string;
  /** Webhook handlers by event kind, written elsewhere on the page. */
  const on: WebhookHandlers;
  /** The reader's own code. */
  function markDelivered(messageId: string): Promise<void>;
  /** The reader's customers, read one by one (a database cursor, a file). */
  function customers(): AsyncIterable<{ phone: string; name: string }>;
}
