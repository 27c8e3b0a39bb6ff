import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const PAGE =
  '<!doctype html><meta charset="utf-8"><title>bizmsg matrix</title><script type="module" src="/page.js"></script>';

/**
 * Serves the bundled page and forwards /api/v1/* to the mock over HTTP, so that the page
 * calls the service on its own origin.
 */
export async function startPageServer(bundle: string, mockBaseUrl: string) {
  const script = readFileSync(bundle);
  const server = createServer((req, res) => void route(req, res));
  async function route(req: IncomingMessage, res: ServerResponse) {
    if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (req.url === '/page.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    if (req.url?.startsWith('/api/v1/')) return forward(req, res, mockBaseUrl + req.url.slice('/api/v1'.length));
    res.writeHead(404).end();
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function forward(req: IncomingMessage, res: ServerResponse, target: string): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers.set(name, value);
  }
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
  const answer = await fetch(target, { method: req.method!, headers, body });
  res.writeHead(answer.status, Object.fromEntries(answer.headers));
  res.end(Buffer.from(await answer.arrayBuffer()));
}
