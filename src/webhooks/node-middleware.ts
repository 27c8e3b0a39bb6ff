import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkHandlerOptions, handleDelivery, SIGNATURE_HEADER, tooLarge, type WebhookAnswer, type WebhookHandlerOptions } from './handle.js';

/** A Node request, possibly with `body` set by an Express body parser. */
type WebhookRequest = IncomingMessage & { body?: unknown };
/** Express's `next`, when mounted in Express. */
type Next = (error?: unknown) => void;

/**
 * A webhook receiver for `node:http` and Express (`app.post('/webhooks', webhookMiddleware(...))`).
 * It reads the raw body itself, up to `maxBodyBytes`; a Buffer or string left by
 * `express.raw()`/`express.text()` is used as is. A body already parsed into an object is
 * an error that names the fix, since the signature needs the exact bytes.
 */
export function webhookMiddleware(options: WebhookHandlerOptions) {
  const maxBodyBytes = checkHandlerOptions(options, 'webhookMiddleware');
  return async (req: WebhookRequest, res: ServerResponse, next?: Next): Promise<void> => {
    try {
      const body = await rawBody(req, maxBodyBytes);
      const answer = body === undefined ? tooLarge(maxBodyBytes) : await handleDelivery(body, req.headers[SIGNATURE_HEADER], options);
      send(res, answer);
    } catch (error) {
      if (next !== undefined) return next(error);
      send(res, { status: 500, body: { error: 'handler_failed', message: (error as Error).message } });
    }
  };
}

/** The raw body, or undefined when it is larger than the cap. */
async function rawBody(req: WebhookRequest, maxBodyBytes: number): Promise<Uint8Array | undefined> {
  const parsed = req.body;
  const given = typeof parsed === 'string' ? new TextEncoder().encode(parsed) : parsed;
  if (given instanceof Uint8Array) return given.byteLength > maxBodyBytes ? undefined : given;
  if ((parsed !== undefined && parsed !== null) || req.readableEnded) throw consumedBodyError(parsed);
  if (Number(req.headers['content-length'] ?? 0) > maxBodyBytes) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Uint8Array).byteLength;
    if (size > maxBodyBytes) return undefined;
    chunks.push(chunk as Uint8Array);
  }
  return concat(chunks, size);
}

function consumedBodyError(parsed: unknown): Error {
  const what =
    parsed === undefined || parsed === null
      ? 'something already read the request stream'
      : `a body parser already turned req.body into ${Array.isArray(parsed) ? 'an array' : `a parsed ${typeof parsed}`}`;
  return new Error(
    `webhookMiddleware needs the raw request body, but ${what}, so the bytes the signature covers are gone. ` +
      "Mount the webhook route before express.json(), or give it express.raw({ type: 'application/json' }).",
  );
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function send(res: ServerResponse, { status, body }: WebhookAnswer): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
