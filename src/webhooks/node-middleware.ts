import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkHandlerOptions, handleDelivery, SIGNATURE_HEADER, tooLarge, type WebhookAnswer, type WebhookHandlerOptions } from './handle.js';

/** A Node request, possibly with `body` set by an Express body parser. */
type WebhookRequest = IncomingMessage & { body?: unknown };
/** Express's `next`, when mounted in Express. */
type Next = (error?: unknown) => void;

/**
 * How much of a body over the cap is still read (and dropped), so that the connection can
 * carry the next delivery; past it the answer closes the connection instead.
 */
const DRAIN_LIMIT_BYTES = 1024 * 1024;

/** A body over the cap: read to its end (the connection stays usable), or abandoned (it must close). */
type Oversized = { drained: boolean };

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
      if (body instanceof Uint8Array) send(res, await handleDelivery(body, req.headers[SIGNATURE_HEADER], options));
      else send(res, tooLarge(maxBodyBytes), body.drained);
    } catch (error) {
      if (next !== undefined) return next(error);
      send(res, { status: 500, body: { error: 'handler_failed', message: (error as Error).message } });
    }
  };
}

/** The raw body, or how a body over the cap was dealt with. */
async function rawBody(req: WebhookRequest, maxBodyBytes: number): Promise<Uint8Array | Oversized> {
  const parsed = req.body;
  const given = typeof parsed === 'string' ? new TextEncoder().encode(parsed) : parsed;
  if (given instanceof Uint8Array) return given.byteLength > maxBodyBytes ? { drained: true } : given;
  if ((parsed !== undefined && parsed !== null) || req.readableEnded) throw consumedBodyError(parsed);
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBodyBytes + DRAIN_LIMIT_BYTES) return { drained: false };
  return readBody(req, maxBodyBytes);
}

/**
 * Reads the stream to its end, keeping at most `maxBodyBytes`. Listeners rather than an async
 * iterator: leaving a `for await` early destroys the request, and with it the half-read
 * keep-alive connection, which the client would then reuse for its next delivery.
 */
function readBody(req: WebhookRequest, maxBodyBytes: number): Promise<Uint8Array | Oversized> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const onData = (chunk: Uint8Array) => {
      size += chunk.byteLength;
      if (size <= maxBodyBytes) chunks.push(chunk);
      else if (size > maxBodyBytes + DRAIN_LIMIT_BYTES) finish(() => resolve({ drained: false }));
      else chunks.length = 0;
    };
    const onEnd = () => finish(() => resolve(size > maxBodyBytes ? { drained: true } : concat(chunks, size)));
    const onClose = () => finish(() => reject(new Error('webhookMiddleware: the request was aborted before its body was complete.')));
    const onError = (error: unknown) => finish(() => reject(error));
    const finish = (settle: () => void) => {
      req.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onError);
      settle();
    };
    req.on('data', onData).on('end', onEnd).on('close', onClose).on('error', onError);
  });
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

/** Writes the answer; `keepAlive: false` tells the client not to reuse the connection, which node:http then closes. */
function send(res: ServerResponse, { status, body }: WebhookAnswer, keepAlive = true): void {
  res.writeHead(status, keepAlive ? { 'content-type': 'application/json' } : { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify(body));
}
