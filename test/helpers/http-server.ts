import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** One request as the real server received it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (request: ReceivedRequest, response: ServerResponse) => unknown;

/** A real node:http server on a free loopback port whose handler each test sets. */
export async function startTestServer(handler: Handler = (_, res) => res.end()) {
  const received: ReceivedRequest[] = [];
  let current = handler;
  const server = createServer((req, res) => void record(req, res));
  const record = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = {
      method: req.method!,
      path: req.url!,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    received.push(request);
    await current(request, res);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    received,
    handle(next: Handler) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON response. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A server `startTestServer` started. */
export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/**
 * A test server for every test of a file: started before them, closed after them, and after each
 * test its log emptied and its handler back to answering 'ok'. Read it in the tests, once it runs.
 */
export function useTestServer(): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());
  afterEach(() => {
    server!.received.length = 0;
    server!.handle((_, res) => res.end('ok'));
  });
  return {
    get origin() {
      return server!.origin;
    },
    get baseUrl() {
      return server!.baseUrl;
    },
    get received() {
      return server!.received;
    },
    handle: (next) => server!.handle(next),
    close: () => server!.close(),
  };
}

/** A loopback port nothing listens on now. */
export async function unusedPort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
