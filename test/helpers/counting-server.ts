import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server does with a send to a number: answer with a status (and code), hold it, or drop the connection. */
export type SendBehaviour =
  | { kind: 'ok'; delayMs?: number }
  | { kind: 'error'; status: number; code: string; retryAfter?: number }
  | { kind: 'hang' }
  | { kind: 'reset' };

/**
 * A Variant 2 service of `POST /api/v1/messages/send` alone, counting every send per `to` (the
 * count a crash test checks for duplicates). `behave(to, nth)` picks the answer (default: 200).
 */
export async function startCountingServer(behave: (to: string, nth: number) => SendBehaviour = () => ({ kind: 'ok' })) {
  const counts = new Map<string, number>();
  let total = 0;
  let nextId = 0;
  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/messages/send')) {
      res.writeHead(404).end();
      return;
    }
    const { to } = JSON.parse(body) as { to: string };
    const nth = (counts.get(to) ?? 0) + 1;
    counts.set(to, nth);
    total += 1;
    const behaviour = behave(to, nth);
    if (behaviour.kind === 'hang') return;
    if (behaviour.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (behaviour.kind === 'error') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (behaviour.retryAfter !== undefined) headers['retry-after'] = String(behaviour.retryAfter);
      res
        .writeHead(behaviour.status, headers)
        .end(JSON.stringify({ error: { code: behaviour.code, message: 'no', details: {} } }));
      return;
    }
    const answer = () => {
      nextId += 1;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: { id: `msg_${nextId}`, to, status: 'sent' } }));
    };
    if (behaviour.delayMs === undefined) answer();
    else setTimeout(answer, behaviour.delayMs);
  };
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handle(req, res, body));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    /** Sends received per `to`. */
    counts,
    /** Sends received in all. */
    total: () => total,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
