import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockNetworkError } from './http-error.js';
import type { MockServerOptions } from './options.js';
import { MockService } from './service.js';

/** Options of `startMockHttpServer`. */
export interface MockHttpServerOptions extends Omit<MockServerOptions, 'baseUrl'> {
  /** Port to listen on (default 0: any free port). */
  port?: number;
  /** Host to bind (default 127.0.0.1). */
  host?: string;
}

/** A running mock over real HTTP. */
export interface MockHttpServer {
  /** Base URL of the API, ending with `/api/v1`. */
  url: string;
  /** A seeded key with every scope. */
  apiKey: string;
  /** The mock behind it: clock, store, deliveries, faults. */
  mock: MockService;
  /** Stops the server. */
  close(): Promise<void>;
}

/** Serves the reference service over real HTTP, for curl or an SDK in any language. */
export async function startMockHttpServer(options: MockHttpServerOptions = {}): Promise<MockHttpServer> {
  const { port = 0, host = '127.0.0.1', ...mockOptions } = options;
  let mock: MockService | undefined;
  const server = createServer((req, res) => void serve(mock!, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/api/v1`;
  mock = new MockService({ ...mockOptions, baseUrl: url });
  return {
    url,
    apiKey: mock.apiKey,
    mock,
    close: () =>
      new Promise<void>((resolve) => {
        mock!.stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function serve(mock: MockService, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const response = await mock.handle(await toRequest(req, mock.baseUrl));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    if (error instanceof MockNetworkError) {
      res.socket?.destroy();
      return;
    }
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'The mock failed unexpectedly.', details: {} } }));
  }
}

async function toRequest(req: IncomingMessage, baseUrl: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = req.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks);
  return new Request(new URL(req.url ?? '/', new URL(baseUrl).origin), { method, headers, body });
}
