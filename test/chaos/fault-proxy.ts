import {
  Agent,
  createServer,
  request as upstreamRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { seededRandom } from '../../src/mock/state/random.js';

/**
 * What the proxy does to one request:
 * - `pass`: forwards it and returns the mock's answer unchanged;
 * - `drop-before`: reads it, then closes the connection without forwarding (the mock never sees it);
 * - `drop-after`: forwards it, waits for the mock's answer, then closes the connection (processed but lost);
 * - `html-5xx`: answers an HTML 502 or 503 page itself, without forwarding;
 * - `html-200`: forwards it and replaces a 2xx answer by an HTML 200 page (proxy junk; other answers pass);
 * - `gateway-429`: answers 429 with `Retry-After: 1` and no rate-limit headers itself, without forwarding;
 * - `slow`: forwards it and holds the mock's answer for `slowMs`, past the client's timeout;
 * - `truncated`: forwards it, sends the mock's status, headers and half its body, then closes the connection.
 */
export type Fault =
  'pass' | 'drop-before' | 'drop-after' | 'html-5xx' | 'html-200' | 'gateway-429' | 'slow' | 'truncated';

/** Every fault but `pass`. */
export const FAULTS = [
  'drop-before',
  'drop-after',
  'html-5xx',
  'html-200',
  'gateway-429',
  'slow',
  'truncated',
] as const satisfies readonly Fault[];

/** Share (0 to 1) of requests that get each fault; the rest pass. */
export type FaultRates = Partial<Record<(typeof FAULTS)[number], number>>;

/** Header naming the test operation a request belongs to, so records can be joined to outcomes. */
export const OPERATION_HEADER = 'x-chaos-op';

/** One request as the proxy handled it. */
export interface ProxiedRequest {
  /** Order of arrival, from 0. */
  readonly seq: number;
  /** The `x-chaos-op` header, when the request carried one. */
  readonly op: string | undefined;
  readonly method: string;
  /** Path and query as received. */
  readonly path: string;
  readonly fault: Fault;
  /** True once the request was sent on to the mock: from then on the mock may have applied it. */
  mockSaw: boolean;
  /** The mock's status, once it answered. */
  mockStatus: number | undefined;
  /** True when the mock's answer reached the client's socket unchanged. */
  delivered: boolean;
}

/** Where a gateway page echoes the request's credentials. */
export type EchoPlace = 'header' | 'reason' | 'body';

/** What the proxy needs to know about a request to choose its fault. */
export interface RequestSummary {
  readonly seq: number;
  readonly op: string | undefined;
  readonly method: string;
  readonly path: string;
}

/** Options of `startFaultProxy`. */
export interface FaultProxyOptions {
  /** Base URL of the mock behind the proxy (as `startMockHttpServer` gives it). */
  upstream: string;
  /** Seed of the fault draws; the same seed and request order give the same faults. */
  seed?: number;
  /** Share of requests per fault (default: none, every request passes). */
  rates?: FaultRates;
  /** Chooses each request's fault instead of drawing it from `rates` (scripted tests). */
  choose?: (request: RequestSummary) => Fault;
  /** How long a `slow` answer is held, in ms (default 2000). */
  slowMs?: number;
  /**
   * The proxy's own error pages echo the request's credentials, as some gateways' debug pages
   * do: in a response header, the reason phrase or the page (`true`: one of them, drawn per
   * page). The key must not leak from there into errors.
   */
  echoCredentials?: boolean | EchoPlace;
}

/** A running fault proxy. */
export interface FaultProxy {
  /** The mock's base URL, through the proxy. */
  readonly baseUrl: string;
  /** Every request so far, in order of arrival. */
  readonly records: readonly ProxiedRequest[];
  /**
   * Resolves once the mock is done with every request so far (of operation `op`, if given):
   * each was either not forwarded or answered by the mock. Bounded by `timeoutMs`.
   */
  settled(op?: string, timeoutMs?: number): Promise<void>;
  /** Stops the proxy, dropping open connections and held answers. */
  close(): Promise<void>;
}

/** The mock's answer to a forwarded request. */
interface UpstreamAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const ECHO_PLACES = ['header', 'reason', 'body'] as const satisfies readonly EchoPlace[];

/** Headers that describe one connection, not the message; never copied across the proxy. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'host',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

/**
 * A real HTTP proxy on 127.0.0.1 in front of the mock, injecting seeded faults per request
 * and recording, for each, whether the mock saw it and whether its answer reached the client.
 */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const upstream = new URL(options.upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: 128 });
  const random = seededRandom(options.seed ?? 1);
  const choose = options.choose ?? drawFrom(options.rates ?? {}, random);
  const slowMs = options.slowMs ?? 2000;
  const records: ProxiedRequest[] = [];
  const heldAnswers = new Set<ReturnType<typeof setTimeout>>();
  const echoPlace = (): EchoPlace =>
    typeof options.echoCredentials === 'string'
      ? options.echoCredentials
      : ECHO_PLACES[Math.floor(random() * ECHO_PLACES.length)]!;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const summary = {
      seq: records.length,
      op: headerValue(req.headers[OPERATION_HEADER]),
      method: req.method ?? 'GET',
      path: req.url ?? '/',
    };
    const record: ProxiedRequest = {
      ...summary,
      fault: choose(summary),
      mockSaw: false,
      mockStatus: undefined,
      delivered: false,
    };
    records.push(record);
    const echo =
      options.echoCredentials === undefined || options.echoCredentials === false
        ? undefined
        : credentialsOf(req.headers);
    switch (record.fault) {
      case 'drop-before':
        req.socket.destroy();
        return;
      case 'html-5xx':
        answerGatewayPage(
          res,
          record.seq % 2 === 0 ? 502 : 503,
          echo === undefined ? undefined : { credentials: echo, place: echoPlace() },
        );
        return;
      case 'gateway-429':
        answerTooManyRequests(res, echo);
        return;
      default:
        // The other faults act on the mock's answer, below.
        break;
    }
    record.mockSaw = true;
    const answer = await forward(agent, upstream, req, body);
    record.mockStatus = answer.status;
    if (record.fault === 'slow') await hold(slowMs);
    answerAfterMock(res, answer, record);
  };

  /** Waits `ms`, unless the proxy closes first (then never resolves: the connection is gone). */
  const hold = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        heldAnswers.delete(timer);
        resolve();
      }, ms);
      heldAnswers.add(timer);
    });

  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/+$/, '')}`,
    records,
    async settled(op, timeoutMs = 10_000) {
      const pending = () =>
        records.some(
          (record) => (op === undefined || record.op === op) && record.mockSaw && record.mockStatus === undefined,
        );
      const until = Date.now() + timeoutMs;
      while (pending() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of heldAnswers) clearTimeout(timer);
        heldAnswers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  };
}

/** Answers a forwarded request as its fault says, from the mock's answer. */
function answerAfterMock(res: ServerResponse, answer: UpstreamAnswer, record: ProxiedRequest): void {
  const ok = answer.status >= 200 && answer.status < 300;
  if (record.fault === 'drop-after' || (record.fault === 'truncated' && answer.body.length < 2)) {
    res.socket?.destroy();
  } else if (record.fault === 'html-200' && ok) {
    answerHtml(
      res,
      200,
      'OK',
      {},
      '<html><body><h1>Welcome</h1><p>Please enable JavaScript to continue.</p></body></html>',
    );
  } else if (record.fault === 'truncated') {
    relayHalf(res, answer);
  } else {
    relay(res, answer, record);
  }
}

/** Sends the request on to the mock and reads its whole answer. */
function forward(agent: Agent, upstream: URL, req: IncomingMessage, body: Buffer): Promise<UpstreamAnswer> {
  const headers = { ...copyableHeaders(req.headers), 'content-length': String(body.length) };
  return new Promise((resolve, reject) => {
    const outgoing = upstreamRequest(
      { agent, host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        readBody(answer).then(
          (data) => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: data }),
          reject,
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Writes the mock's answer unchanged; `delivered` is set once it is flushed to the client's socket. */
function relay(res: ServerResponse, answer: UpstreamAnswer, record: ProxiedRequest): void {
  if (res.socket === null || res.socket.destroyed) return;
  res.writeHead(answer.status, { ...copyableHeaders(answer.headers), 'content-length': String(answer.body.length) });
  res.end(answer.body, () => {
    record.delivered = true;
  });
}

/** Writes the mock's status, headers (with the full length) and half its body, then closes the connection. */
function relayHalf(res: ServerResponse, answer: UpstreamAnswer): void {
  if (res.socket === null || res.socket.destroyed) return;
  res.writeHead(answer.status, { ...copyableHeaders(answer.headers), 'content-length': String(answer.body.length) });
  res.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)), () => res.socket?.destroy());
}

/** A gateway's own 502/503 page, without the service's error envelope. */
function answerGatewayPage(
  res: ServerResponse,
  status: 502 | 503,
  echo: { credentials: string; place: EchoPlace } | undefined,
): void {
  const reason = status === 502 ? 'Bad Gateway' : 'Service Unavailable';
  answerHtml(
    res,
    status,
    echo?.place === 'reason' ? `${reason} (request credentials: ${echo.credentials})` : reason,
    echo?.place === 'header' ? { 'x-debug-credentials': echo.credentials } : {},
    `<html><head><title>${status} ${reason}</title></head><body><h1>${status} ${reason}</h1>` +
      (echo?.place === 'body' ? `<pre>credentials: ${echo.credentials}</pre>` : '') +
      '<hr><center>nginx</center></body></html>',
  );
}

/** A gateway's own 429: `Retry-After: 1`, no `X-RateLimit-*` headers, no error envelope. */
function answerTooManyRequests(res: ServerResponse, echo: string | undefined): void {
  answerHtml(
    res,
    429,
    'Too Many Requests',
    { 'retry-after': '1', ...(echo === undefined ? {} : { 'x-debug-credentials': echo }) },
    '<html><body><h1>429 Too Many Requests</h1></body></html>',
  );
}

function answerHtml(
  res: ServerResponse,
  status: number,
  reason: string,
  headers: Record<string, string>,
  page: string,
): void {
  if (res.socket === null || res.socket.destroyed) return;
  const body = Buffer.from(page);
  res.writeHead(status, reason, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(body.length),
    ...headers,
  });
  res.end(body);
}

/** The headers of a message that may cross the proxy. */
function copyableHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const copied: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) copied[name] = value;
  }
  return copied;
}

async function readBody(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function credentialsOf(headers: IncomingHttpHeaders): string | undefined {
  return headerValue(headers.authorization) ?? headerValue(headers['x-api-key']);
}

/** Draws a fault from `rates`: each fault takes its share of [0, 1), in `FAULTS` order. */
function drawFrom(rates: FaultRates, random: () => number): (request: RequestSummary) => Fault {
  const total = FAULTS.reduce((sum, fault) => sum + (rates[fault] ?? 0), 0);
  if (!(total <= 1)) throw new TypeError(`Fault rates add up to ${total}; at most 1.`);
  return () => {
    let draw = random();
    for (const fault of FAULTS) {
      draw -= rates[fault] ?? 0;
      if (draw < 0) return fault;
    }
    return 'pass';
  };
}
