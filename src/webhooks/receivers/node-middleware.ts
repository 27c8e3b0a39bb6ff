// The receiver for node:http and Express: (req, res, next?) reading the raw body itself.
import { SIGNATURE_HEADER } from '../../contract/webhooks.js';
import type { WebhookAnswer } from './answer.js';
import { concat } from '../../shared/bytes.js';
import { checkHandlerOptions, handleDelivery, tooLarge, type WebhookHandlerOptions } from './handle.js';

/**
 * What `webhookMiddleware` uses of a node:http `IncomingMessage` or an Express request (whose
 * `body` a body parser may have set). Described here rather than imported from node:http, so
 * that the types of `bizmsg/webhooks` do not need `@types/node`.
 */
export interface WebhookRequest {
  /** The request's headers, lower-case names, as node:http gives them. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** True when the body stream was read already (a body parser ran first): then `body` must hold the raw bytes. */
  readonly readableEnded: boolean;
  /** The body a parser ran before left: a Buffer or string of the raw bytes (a parsed object cannot be verified). */
  readonly body?: unknown;
  // `any[]` as node:http has it (EventEmitter's listener type): nothing narrower accepts an IncomingMessage.
  /** Listens to the body stream's events, as `IncomingMessage.on`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: 'data' | 'end' | 'close' | 'error', listener: (...args: any[]) => void): unknown;
  /** Stops listening, as `IncomingMessage.off`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  off(event: 'data' | 'end' | 'close' | 'error', listener: (...args: any[]) => void): unknown;
}

/** What `webhookMiddleware` uses of a node:http `ServerResponse` or an Express response. */
export interface WebhookResponse {
  /** Sends the status and headers, as `ServerResponse.writeHead`. */
  writeHead(statusCode: number, headers: Record<string, string>): unknown;
  /** Sends the body and ends the answer, as `ServerResponse.end`. */
  end(body: string): unknown;
}

/**
 * The `(req, res, next?)` function `webhookMiddleware` returns: a node:http listener and an Express
 * handler. Its promise settles once the answer is written (a Next.js API route returns it), and it
 * does not reject: failures are answered, or passed to `next`.
 */
export type WebhookMiddleware = (
  req: WebhookRequest,
  res: WebhookResponse,
  next?: (error?: unknown) => void,
) => Promise<void>;

/**
 * How much of a body over the cap is still read (and dropped), so that the connection can
 * carry the next delivery; past it the answer closes the connection instead.
 */
const DRAIN_LIMIT_BYTES = 1_048_576; // 1 MiB

/** A body over the cap: read to its end (the connection stays usable), or abandoned (it must close). */
type Oversized = { drained: boolean };
/** The client went away before the body was complete: there is no one to answer. */
const ABORTED = 'aborted';

/**
 * A webhook receiver for `node:http` and Express (`app.post('/webhooks', webhookMiddleware(...))`).
 * It reads the raw body itself, up to `maxBodyBytes`; a Buffer or string left by
 * `express.raw()`/`express.text()` is used as is. A body already parsed into an object is
 * an error that names the fix, since the signature needs the exact bytes.
 *
 * @example
 * ```ts
 * const app = express();
 * // Before express.json(): the signature covers the raw bytes.
 * app.post('/webhooks', webhookMiddleware({
 *   secret: process.env.BIZMSG_WEBHOOK_SECRET!,
 *   on: { 'message.failed': (event) => console.warn(event.data) },
 * }));
 * app.use(express.json());
 * ```
 */
export function webhookMiddleware(options: WebhookHandlerOptions): WebhookMiddleware {
  const receiver = checkHandlerOptions(options, 'webhookMiddleware');
  const { maxBodyBytes } = receiver;
  return async (req, res, next) => {
    try {
      const body = await rawBody(req, maxBodyBytes);
      if (body === ABORTED) return;
      if (body instanceof Uint8Array) send(res, await handleDelivery(body, req.headers[SIGNATURE_HEADER], receiver));
      else send(res, tooLarge(maxBodyBytes), body.drained);
    } catch (error) {
      if (next !== undefined) return next(error);
      send(res, { status: 500, body: { error: 'handler_failed', message: (error as Error).message } });
    }
  };
}

/** The raw body, or how a body over the cap was dealt with. */
async function rawBody(req: WebhookRequest, maxBodyBytes: number): Promise<Uint8Array | Oversized | typeof ABORTED> {
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
function readBody(req: WebhookRequest, maxBodyBytes: number): Promise<Uint8Array | Oversized | typeof ABORTED> {
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const onData = (chunk: Uint8Array) => {
      size += chunk.byteLength;
      if (size <= maxBodyBytes) chunks.push(chunk);
      else if (size > maxBodyBytes + DRAIN_LIMIT_BYTES) finish(() => resolve({ drained: false }));
      else chunks.length = 0;
    };
    const onEnd = () => finish(() => resolve(size > maxBodyBytes ? { drained: true } : concat(chunks, size)));
    // node:http reports a client that went away mid-body as 'error' (ECONNRESET), then 'close'.
    const onAbort = () => finish(() => resolve(ABORTED));
    const finish = (settle: () => void) => {
      for (const [event, listener] of listeners) req.off(event, listener);
      settle();
    };
    const listeners = [
      ['data', onData],
      ['end', onEnd],
      ['close', onAbort],
      ['error', onAbort],
    ] as const;
    for (const [event, listener] of listeners) req.on(event, listener);
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

/** Writes the answer; `keepAlive: false` tells the client not to reuse the connection, which node:http then closes. */
function send(res: WebhookResponse, { status, headers, body }: WebhookAnswer, keepAlive = true): void {
  const head = { ...headers, 'content-type': 'application/json' };
  res.writeHead(status, keepAlive ? head : { ...head, connection: 'close' });
  res.end(JSON.stringify(body));
}
