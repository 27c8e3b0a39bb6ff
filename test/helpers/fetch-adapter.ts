import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/**
 * Serves a `(request: Request) => Promise<Response>` handler on node:http, streaming the body
 * to it, as Bun.serve or Deno.serve would. A body the handler did not read to its end (it
 * answered 413 early) is read and dropped after the answer, so the keep-alive connection is
 * left at the start of the next request.
 */
export function serveFetch(handler: (request: Request) => Promise<Response>): RequestListener {
  return (req, res) => void serveOne(handler, req, res);
}

async function serveOne(
  handler: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const body = streamOf(req);
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method,
    headers: headersOf(req),
    ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: body.stream, duplex: 'half' }),
  });
  const response = await handler(request);
  await send(res, response);
  if (!req.readableEnded) {
    body.stop();
    req.resume();
  }
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : [value ?? '']) headers.append(name, one);
  }
  return headers;
}

/** The request body as a Web stream; cancelling it (or `stop`) stops reading without destroying the request and its connection. */
function streamOf(req: IncomingMessage): { stream: ReadableStream<Uint8Array>; stop: () => void } {
  const listeners: Array<[string, (...args: any[]) => void]> = [];
  const stop = () => {
    for (const [event, listener] of listeners) req.off(event, listener);
    req.pause();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const on = (event: string, listener: (...args: any[]) => void) => {
        listeners.push([event, listener]);
        req.on(event, listener);
      };
      on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      on('end', () => {
        stop();
        controller.close();
      });
      on('error', (error: Error) => {
        stop();
        controller.error(error);
      });
    },
    pull() {
      req.resume();
    },
    cancel: stop,
  });
  return { stream, stop };
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}
