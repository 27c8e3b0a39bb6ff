// A "real service" of our own for the proxy and replay tests: Variant 2 by the spec's letter, but
// differing from bizmsg's guesses where the spec is silent (a tag list as a string, a send result
// without `id`, an unlisted status, an unknown error code, a missing rate-limit header), answering
// gzip when asked, echoing the numbers it was sent, and with a slow route.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** One request as the service received it: headers and body bytes exactly. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
}

/** The "other service". */
export interface OtherService {
  readonly baseUrl: string;
  readonly seen: SeenRequest[];
  /** Every answer's bytes as written on the wire after the head (what a client talking to it directly gets). */
  close(): Promise<void>;
}

const RATE = { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '99', 'X-RateLimit-Reset': '1767225600' };

/** Starts it on a free loopback port; `slowMs`: how long `GET /slow` waits before answering. */
export async function startOtherService(options: { slowMs?: number } = {}): Promise<OtherService> {
  const seen: SeenRequest[] = [];
  const counter = { message: 1 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method!, url: req.url!, rawHeaders: [...req.rawHeaders], body });
      answer(req, body, res, options.slowMs ?? 1500, counter);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(
  req: IncomingMessage,
  body: Buffer,
  res: ServerResponse,
  slowMs: number,
  counter: { message: number },
): void {
  const url = new URL(req.url!, 'http://service');
  const path = url.pathname.replace(/^\/api\/v1/, '');
  const json = (status: number, value: unknown, headers: Record<string, string | string[]> = RATE) => {
    let bytes = Buffer.from(JSON.stringify(value));
    const extra: Record<string, string | string[]> = { 'Content-Type': 'application/json; charset=utf-8', ...headers };
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      bytes = gzipSync(bytes);
      extra['Content-Encoding'] = 'gzip';
    }
    res.writeHead(status, 'Whatever The Service Says', { ...extra, 'Content-Length': String(bytes.length) });
    res.end(bytes);
  };
  if (req.headers.authorization !== 'Bearer sk_live_canary_0123456789abcdef')
    return json(401, { error: { code: 'AUTHENTICATION_ERROR', message: 'Invalid key', details: {} } }, {});
  const sent = body.length === 0 ? {} : (JSON.parse(body.toString()) as Record<string, unknown>);
  if (req.method === 'GET' && /^\/contacts\/\d+$/.test(path))
    return json(200, {
      data: { id: Number(path.split('/')[2]), name: 'Ada', phone: '+4915112345678', tags: 'vip', loyalty_tier: 'gold' },
    });
  if (req.method === 'GET' && path === '/contacts')
    return json(200, {
      data: [{ id: 1, name: 'Ada', phone: '+4915112345678' }],
      meta: { current_page: 1, per_page: 20, total: 1, last_page: 1 },
    });
  if (req.method === 'POST' && path === '/contacts')
    return json(201, { data: { id: 2, ...sent, created_at: '2026-01-01T00:00:00Z' } });
  if (req.method === 'POST' && path === '/messages/send')
    return json(200, { data: { message_id: `msg_${counter.message++}`, recipient: sent.to, status: 'queued' } });
  if (req.method === 'POST' && path === '/webhooks')
    return json(201, { data: { id: 'wh_1', url: sent.url, events: sent.events, secret: sent.secret } });
  if (req.method === 'GET' && path === '/account/me') {
    const { 'X-RateLimit-Reset': _reset, ...withoutReset } = RATE;
    return json(200, { data: { id: 1, name: 'Acme', plan: 'starter' } }, withoutReset);
  }
  if (req.method === 'GET' && path === '/campaigns')
    return json(403, {
      error: { code: 'FEATURE_NOT_ENABLED', message: 'Campaigns are not on your plan', details: {} },
    });
  if (req.method === 'GET' && path === '/conversations')
    return json(
      429,
      { error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Slow down', details: {} } },
      {
        ...RATE,
        'X-RateLimit-Remaining': '0',
        'Retry-After': '30',
      },
    );
  if (req.method === 'GET' && path === '/webhooks') return json(418, { data: [] });
  if (req.method === 'GET' && path === '/slow') {
    setTimeout(() => json(200, { data: { slow: true } }), slowMs);
    return;
  }
  if (req.method === 'GET' && path === '/cut') {
    // The service dies mid-answer: the head and part of the body, then the connection is cut.
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100', ...RATE });
    res.write('{"data":{"id"');
    setTimeout(() => res.socket?.destroy(), 50);
    return;
  }
  if (req.method === 'GET' && path === '/big') {
    const size = Number(url.searchParams.get('bytes') ?? 1_048_576);
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(size), ...RATE });
    res.end(Buffer.alloc(size, 120));
    return;
  }
  json(404, { error: { code: 'RESOURCE_NOT_FOUND', message: `No ${path}`, details: {} } });
}
