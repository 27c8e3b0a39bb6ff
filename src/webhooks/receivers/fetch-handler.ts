// The receiver for Fetch-style servers: (request: Request) => Promise<Response>.
import { SIGNATURE_HEADER } from '../../contract/webhooks.js';
import type { Logger } from '../../shared/logger.js';
import type { WebhookAnswer } from './answer.js';
import { concat } from '../../shared/bytes.js';
import { checkHandlerOptions, handleDelivery, tooLarge, type WebhookHandlerOptions } from './handle.js';

/**
 * A `(request: Request) => Promise<Response>` webhook receiver for Hono, Next.js route
 * handlers, Cloudflare Workers, Bun and Deno: 200 when handled, 401 for a bad or missing
 * signature, 400 for a malformed payload, 413 for an oversized body, 500 when a handler throws
 * (or your code read the body before the handler got the Request), 503 for a copy of a delivery
 * that another copy is being handled for (with `dedupe`).
 *
 * @example
 * ```ts
 * // app/api/webhooks/route.ts (Next.js), or app.post('/webhooks', (c) => handle(c.req.raw)) in Hono
 * const handle = createWebhookHandler({
 *   secret: process.env.BIZMSG_WEBHOOK_SECRET!,
 *   on: { 'message.delivered': (event) => console.log(event.data.message_id) },
 * });
 * export const POST = (request: Request) => handle(request);
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions): (request: Request) => Promise<Response> {
  const receiver = checkHandlerOptions(options, 'createWebhookHandler');
  const { maxBodyBytes } = receiver;
  return async (request) => {
    if (request.method !== 'POST') {
      return new Response(null, { status: 405, headers: { allow: 'POST' } });
    }
    if (Number(request.headers.get('content-length') ?? 0) > maxBodyBytes) return respond(tooLarge(maxBodyBytes));
    if (request.bodyUsed || request.body?.locked === true) return respond(bodyAlreadyRead(receiver.logger));
    let body: Uint8Array | undefined;
    try {
      body = await readBody(request, maxBodyBytes);
    } catch (error) {
      // The client went away mid-body (or the stream broke): answer, rather than throw into the server's logs.
      return respond(unreadable(error));
    }
    if (body === undefined) return respond(tooLarge(maxBodyBytes));
    return respond(await handleDelivery(body, request.headers.get(SIGNATURE_HEADER), receiver));
  };
}

/** The body, read up to the cap (a chunked body declares no length); undefined once it passes the cap, the rest cancelled. */
async function readBody(request: Request, maxBodyBytes: number): Promise<Uint8Array | undefined> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return concat(chunks, size);
    size += value.byteLength;
    if (size > maxBodyBytes) {
      reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
}

/**
 * The receiver's own code read the body before the handler got it: a 500 that names the fix (the
 * sender is not to blame, and the service retries), logged because only the receiver can act on it.
 * Not onError: that is for a handler failing on an event, and there is no event here.
 */
function bodyAlreadyRead(logger: Logger): WebhookAnswer {
  const message =
    'createWebhookHandler needs the Request as it arrived, but its body was already read (or is locked by a reader), so the bytes the signature covers are gone. ' +
    'Pass the Request on untouched (no request.json(), .text() or .formData() before it), ' +
    'or read the body yourself with await request.text() and call parseWebhookAsync(text, signature, secret) instead.';
  logger.error(`bizmsg: ${message}`);
  return { status: 500, body: { error: 'handler_failed', message } };
}

function unreadable(error: unknown): WebhookAnswer {
  const why = error instanceof Error ? error.message : 'the stream failed';
  return {
    status: 400,
    body: { error: 'unreadable_body', message: `The request body could not be read to its end: ${why}.` },
  };
}

function respond({ status, headers, body }: WebhookAnswer): Response {
  return Response.json(body, headers === undefined ? { status } : { status, headers });
}
