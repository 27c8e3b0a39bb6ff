// A counting forwarder: a local HTTP server that forwards every request to a service (the emulator)
// and its answer back unchanged, counting the requests by method and path (the query left out), so
// that a test sees what crossed the wire whatever the client or the service keep.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A forwarder in front of `target` (a base URL ending in /api/v1). */
export interface CountingForwarder {
  /** Its base URL, to give a client instead of the target's. */
  readonly baseUrl: string;
  /** Requests forwarded since the last `reset()`, as `"GET /contacts"`, in order. */
  readonly requests: string[];
  /** How many forwarded requests match `"METHOD /path"` (a RegExp over it, or an exact string). */
  count(what: string | RegExp): number;
  /** Forgets the requests counted. */
  reset(): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'content-length']);

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** What a test may do around each request (`"POST /contacts"`): order the requests of several processes. */
export interface ForwarderHooks {
  /** Awaited before the request is forwarded. */
  before?: (request: string) => Promise<void> | undefined;
  /** Called once its answer came back, before it is passed on. */
  after?: (request: string) => void;
}

/** Starts a forwarder on a free port in front of `target`. */
export async function startCountingForwarder(target: string, hooks: ForwarderHooks = {}): Promise<CountingForwarder> {
  const requests: string[] = [];
  const targetUrl = new URL(target);
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://forwarder');
      const below = url.pathname.replace(/^\/api\/v1/, '');
      const line = `${req.method} ${below}`;
      requests.push(line);
      await hooks.before?.(line);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers.set(name, value);
      const payload = await body(req);
      try {
        const answer = await fetch(`${targetUrl.origin}${targetUrl.pathname}${below}${url.search}`, {
          method: req.method,
          headers,
          body: payload.length === 0 ? undefined : new Uint8Array(payload),
        });
        hooks.after?.(line);
        const out: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out[name] = value;
        });
        res.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
      } catch {
        req.socket.destroy();
      }
    })();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const matches = (what: string | RegExp) => (line: string) =>
    typeof what === 'string' ? line === what : what.test(line);
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    requests,
    count: (what) => requests.filter(matches(what)).length,
    reset: () => requests.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
