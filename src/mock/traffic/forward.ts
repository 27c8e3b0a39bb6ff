// Forwarding one request to the real service and its answer back, unchanged: the method, path, query,
// headers but hop-by-hop ones and body bytes one way; the status, headers and body bytes the other.
// Both bodies stream through (a slow answer is passed on as it comes), copied within bounds as they pass.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { BodyCopy, decoded, type Exchange } from './exchange.js';

/** Headers that belong to one connection, never passed on (RFC 9110 section 7.6.1), and the proxy's own. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
/** How long the service may stay silent on a connection before the exchange fails (a proxy must not hold it forever). */
const UPSTREAM_IDLE_MS = 300_000;

/** Where requests go: the service's base URL, and the connections kept to it. */
export class Upstream {
  readonly base: URL;
  readonly #agent: HttpAgent;
  readonly #request: typeof httpRequest;

  constructor(target: string) {
    this.base = new URL(target.replace(/\/+$/, ''));
    const https = this.base.protocol === 'https:';
    this.#agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.#request = https ? httpsRequest : httpRequest;
  }

  /**
   * Forwards `req` (for `path` below the base URL, with `search`) and writes the answer on `res` as it
   * comes; `done` gets the exchange once the answer was passed on whole, or the failure.
   */
  forward(
    req: IncomingMessage,
    res: ServerResponse,
    target: { path: string; search: string; at: number },
    done: (exchange: Exchange | Error) => void,
  ): void {
    const started = performance.now();
    const requestCopy = new BodyCopy();
    let answerCopy: BodyCopy | undefined;
    let over = false;
    /** The exchange failed: the copies dropped, and the client's connection cut if its answer had begun. */
    const failed = (error: Error) => {
      if (over) return;
      over = true;
      requestCopy.giveUp();
      answerCopy?.giveUp();
      if (res.headersSent) res.destroy();
      done(error);
    };
    const upstream = this.#request(
      {
        protocol: this.base.protocol,
        hostname: this.base.hostname,
        port: this.base.port,
        method: req.method,
        path: `${this.base.pathname}${target.path}${target.search}`,
        headers: passedOn(req.rawHeaders, this.base.host),
        agent: this.#agent,
        timeout: UPSTREAM_IDLE_MS,
      },
      (answer) => {
        const copy = (answerCopy = new BodyCopy());
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, passedOn(answer.rawHeaders));
        answer.on('data', (chunk: Buffer) => copy.add(chunk));
        answer.pipe(res);
        answer.once('end', () => {
          over = true;
          void completed(req, answer, target, started, requestCopy, copy).then(done, done);
        });
        // The service cut the connection mid-answer: so is the client's, as it would be talking to the service.
        answer.once('close', () => {
          if (!answer.complete) failed(new Error('the service cut the connection mid-answer'));
        });
        answer.once('error', failed);
      },
    );
    upstream.once('timeout', () => upstream.destroy(new Error(`no answer for ${UPSTREAM_IDLE_MS / 1000} s`)));
    upstream.once('error', failed);
    req.on('data', (chunk: Buffer) => requestCopy.add(chunk));
    // The client gave up: so does the exchange with the service.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  /** Closes the connections kept to the service. */
  close(): void {
    this.#agent.destroy();
  }
}

/** The exchange, once both bodies are whole: decoded from their content encodings for the checks and the recording. */
async function completed(
  req: IncomingMessage,
  answer: IncomingMessage,
  target: { path: string; search: string; at: number },
  started: number,
  requestCopy: BodyCopy,
  answerCopy: BodyCopy,
): Promise<Exchange> {
  const requestHeaders = joined(req.rawHeaders);
  const responseHeaders = joined(answer.rawHeaders);
  const requestBytes = requestCopy.take();
  const answerBytes = answerCopy.take();
  return {
    at: target.at,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
    method: req.method ?? 'GET',
    path: target.path,
    search: target.search,
    requestHeaders,
    requestBody: requestBytes && (await decoded(requestBytes, requestHeaders['content-encoding'])),
    status: answer.statusCode ?? 0,
    responseHeaders,
    responseBody: answerBytes && (await decoded(answerBytes, responseHeaders['content-encoding'])),
  };
}

/**
 * Raw headers (`[name, value, …]`, as they came) without the hop-by-hop ones and those the
 * `Connection` header names; `host` (the service's) replaces the request's own.
 */
function passedOn(raw: readonly string[], host?: string): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.toLowerCase() === 'connection')
      for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name) || (host !== undefined && name === 'host')) continue;
    kept.push(raw[i]!, raw[i + 1]!);
  }
  if (host !== undefined) kept.unshift('Host', host);
  return kept;
}

/** Raw headers as one record, names in lower case, several of one name joined with ", ". */
function joined(raw: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    headers[name] = headers[name] === undefined ? raw[i + 1]! : `${headers[name]}, ${raw[i + 1]!}`;
  }
  return headers;
}
