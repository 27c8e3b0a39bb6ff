import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const PAGE =
  '<!doctype html><meta charset="utf-8"><title>bizmsg matrix</title><script type="module" src="/page.js"></script>';

/** Serves the matrix page at `/` and `scripts` (JavaScript, by path) on a free loopback port; anything else is a 404. */
export async function startPageServer(scripts: Record<string, string>) {
  const byPath = new Map(Object.entries(scripts));
  const server = createServer((req, res) => {
    if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    const script = byPath.get(req.url ?? '');
    if (script !== undefined) return res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    res.writeHead(404).end();
  });
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
