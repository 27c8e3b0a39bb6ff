// The mock over real HTTP (node:http): startMockHttpServer, what the bizmsg-mock bin runs.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { controlApiDocument } from '../control/document.js';
import {
  answerControl,
  controlError,
  isControlPath,
  type ControlAccess,
  type ControlAnswer,
} from '../control/handler.js';
import { envelopeOf } from '../rules/envelope.js';
import { blockedByService, HostAllowlist, requestBlock, type RequestBlock } from '../rules/guard/request-guard.js';
import type { MockAnswer, MockRequest } from '../wire/request.js';
import { nodeMockRequest } from './node-request.js';
import type { MockServerOptions } from '../options.js';
import { endUnderWay, MockService } from '../service.js';
import type { Variant } from '../../contract/variant.js';
import {
  answerAndLinger,
  answeredOnSocket,
  answerOnSocket,
  answerUnparsable,
  ResponsesInProgress,
} from './socket-answers.js';
import { validationError } from '../rules/validate.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { showValue } from '../../shared/describe.js';
import { checkInteger } from '../../shared/guards.js';

/** Options of `startMockHttpServer`. */
export interface MockHttpServerOptions extends Omit<MockServerOptions, 'baseUrl'> {
  /** Port to listen on (default 0: any free port). */
  port?: number | undefined;
  /** Host to bind (default 127.0.0.1). */
  host?: string | undefined;
  /**
   * The token the control API (`/_bizmsg/`) requires, as `Authorization: Bearer <token>`. Bound to a
   * loopback address the control API needs none unless this is given; bound to any other address it
   * always needs one, and a random one is made when this is not given (`controlToken` of the result).
   */
  controlToken?: string | undefined;
  /**
   * More names the server answers to in `Host`, besides `localhost` (and `*.localhost`), any IP
   * address and the host bound: each a name (`dev.example`), or a domain with a leading dot for it
   * and its subdomains (`.tunnel.example`). Every other name gets 403, on every route, so that a
   * page of another site that rebinds its name to this machine reaches nothing.
   */
  allowedHosts?: readonly string[] | undefined;
}

/** A running mock over real HTTP. */
export interface MockHttpServer {
  /** Base URL of the API, ending with `/api/v1`. */
  baseUrl: string;
  /** A seeded key with every scope. */
  apiKey: string;
  /** The mock behind it: clock, store, deliveries, faults. */
  mock: MockService;
  /** The server's origin (`http://127.0.0.1:4010`): the control API is at `{origin}/_bizmsg/`. */
  origin: string;
  /** The token the control API requires, or undefined when it requires none (a loopback bind without one). */
  controlToken: string | undefined;
  /**
   * Stops the server: every connection ends at once (keep-alive ones, streams, and the mock's own
   * webhook deliveries under way). A customer's `say` under way in this process resolves with what
   * came; one called over the control API ends with its connection (`connectMock`'s rejects with a
   * `BizMsgError` saying the control API could not be reached).
   */
  close(): Promise<void>;
}

/** Serves the reference service over real HTTP, for curl or an SDK in any language. */
export async function startMockHttpServer(options: MockHttpServerOptions = {}): Promise<MockHttpServer> {
  const { port = 0, host = '127.0.0.1', controlToken, allowedHosts, ...given } = options;
  checkHost(host);
  checkControlToken(controlToken);
  const hosts = new HostAllowlist(host, allowedHosts);
  const mockOptions = isLoopback(host) ? given : withUnguessableKeys(given);
  const access = controlAccess(host, controlToken);
  let mock: MockService | undefined;
  const served = await serveHttp({ port, host, hosts }, (baseUrl) => {
    mock = new MockService({ ...mockOptions, baseUrl }, { localHosts: localHosts(host) });
    return mockFace(mock, access);
  });
  return {
    baseUrl: served.baseUrl,
    apiKey: mock!.apiKey,
    mock: mock!,
    origin: served.origin,
    controlToken: access.token,
    close: () => {
      endUnderWay(mock!);
      mock!.pause();
      return served.close();
    },
  };
}

/** The `host` option: a host name or IP address to listen on. */
function checkHost(host: unknown): asserts host is string {
  if (typeof host !== 'string' || host.trim() === '')
    throw new InvalidArgumentError(
      `The \`host\` option must be a host name or IP address such as '127.0.0.1', got ${showValue(host)}.`,
    );
}

/** Why the server could not listen, in words that say what to do; Node's error is the cause. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host}:${port}`;
  if (error.code === 'EADDRINUSE')
    return new InvalidArgumentError(
      `Cannot listen on ${where}: the port is taken; choose another, or 0 for any free one.`,
      { cause: error },
    );
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN')
    return new InvalidArgumentError(
      `Cannot listen on ${where}: no interface of this machine has that address (${error.code}).`,
      { cause: error },
    );
  if (error.code === 'EACCES')
    return new InvalidArgumentError(
      `Cannot listen on ${where}: not allowed (EACCES; ports below 1024 need privileges).`,
      { cause: error },
    );
  return error;
}

/**
 * What the HTTP face serves below its base URL and at `/_bizmsg/`: the mock, or (`traffic/`) a
 * proxy to the real service or a replay of its recording. The face itself checks every request
 * first (`Host`, a mock's delivery), serves the dashboard, and writes the answers.
 */
export interface HttpService {
  readonly variant: Variant;
  /** Its base URL, ending with `/api/v1`. */
  readonly baseUrl: string;
  /** The answer to a request for the service's API (any method, CONNECT included). */
  answer(request: MockRequest): MockAnswer | Promise<MockAnswer>;
  /** The answer to a call of the control API (`/_bizmsg/`). */
  control(request: MockRequest): ControlAnswer | Promise<ControlAnswer>;
  /**
   * Answers a request for the service's API on `res` itself, streaming (the proxy): true when it
   * took it; false (or absent) leaves it to `answer`.
   */
  takeOver?(request: MockRequest, req: IncomingMessage, res: ServerResponse): boolean;
}

/** The mock as the HTTP face serves it. */
function mockFace(mock: MockService, access: ControlAccess): HttpService {
  let document: string | undefined;
  const origin = new URL(mock.baseUrl).origin;
  return {
    variant: mock.variant,
    baseUrl: mock.baseUrl,
    answer: (request) => mock.answer(request),
    // The control API's document, naming this server, built on first use.
    control: (request) =>
      answerControl(
        mock,
        request,
        access,
        () => (document ??= JSON.stringify(controlApiDocument({ serverUrl: origin }))),
      ),
  };
}

/** Where `serveHttp` listens, and the names it answers to. */
export interface HttpBinding {
  readonly port: number;
  readonly host: string;
  readonly hosts: HostAllowlist;
}

/** A node:http server serving one `HttpService`. */
export interface ServedHttp {
  /** The base URL, ending with `/api/v1`. */
  readonly baseUrl: string;
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Listens on `binding` and serves the service `serviceAt(baseUrl)` makes once the URL is known (with
 * `--port 0` only listening tells the port); what `serviceAt` throws closes the server and rejects.
 */
export async function serveHttp(
  binding: HttpBinding,
  serviceAt: (baseUrl: string) => HttpService,
): Promise<ServedHttp> {
  const { host, hosts } = binding;
  const port = checkInteger('The `port` option', binding.port, 0, 0, 65_535);
  // Node's own bare 400 for a request without Host would skip the variant's envelope; a stalled body times out.
  const server = createServer({ requireHostHeader: false, requestTimeout: REQUEST_TIMEOUT_MS });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, host, port)));
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  // Bound to every interface, the mock names the loopback one, which this machine can always reach.
  const named = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const origin = `http://${named.includes(':') ? `[${named}]` : named}:${address.port}`;
  const baseUrl = `${origin}/api/v1`;
  let service: HttpService;
  try {
    service = serviceAt(baseUrl);
  } catch (error) {
    server.close();
    throw error;
  }
  // Attached in the same tick as listen() resolved: no connection is handled before the service knows its URL.
  const adapter = new NodeAdapter(service, hosts);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => adapter.serve(req, res));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => adapter.answerUnparsable(error, socket));
  server.on('connect', (req: IncomingMessage, socket: Socket) => void adapter.answerConnect(req, socket));
  return {
    baseUrl,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Fails the connection: after an injected network error (the mock answers everything else), or
 * an answer that could not be written.
 */
function fail(res: ServerResponse): void {
  res.socket?.destroy();
}

/** Carries requests from node:http to the service (or its control API, or the dashboard) and its answers back. */
class NodeAdapter {
  readonly #service: HttpService;
  readonly #origin: string;
  readonly #hosts: HostAllowlist;
  readonly #responses = new ResponsesInProgress();
  #dashboard: Promise<typeof import('../dashboard/serve.js')> | undefined;

  constructor(service: HttpService, hosts: HostAllowlist) {
    this.#service = service;
    this.#origin = new URL(service.baseUrl).origin;
    this.#hosts = hosts;
  }

  /** Answers one request: at once when the service can, like a plain node:http handler. */
  serve(req: IncomingMessage, res: ServerResponse): void {
    // A request pipelined behind one answered on the socket: it will get no answer, so it must not run.
    if (answeredOnSocket(req)) return;
    this.#responses.add(req.socket, res);
    if (req.httpVersionMajor !== 1) {
      this.#answerOtherVersion(req, res);
      return;
    }
    let answer: ControlAnswer | Promise<ControlAnswer>;
    try {
      const request = nodeMockRequest(req, this.#origin);
      const { pathname } = new URL(request.url);
      // Every route alike: the service, the control API and its stream, the dashboard.
      const block = requestBlock(request, this.#hosts);
      if (block !== undefined) {
        this.#write(req, res, blocked(this.#service.variant, request.method, pathname, block));
        return;
      }
      const asset = dashboardAssetOf(request.method, pathname);
      if (asset !== undefined) {
        void this.#serveDashboard(req, res, asset);
        return;
      }
      if (isControlPath(pathname)) answer = this.#service.control(request);
      else if (this.#service.takeOver?.(request, req, res) === true) return;
      else answer = this.#service.answer(request);
    } catch {
      fail(res);
      return;
    }
    if (answer instanceof Promise)
      answer.then(
        (later) => this.#write(req, res, later),
        () => fail(res),
      );
    else this.#write(req, res, answer);
  }

  /** The dashboard's files, with the code that serves them loaded at the first request for one. */
  async #serveDashboard(req: IncomingMessage, res: ServerResponse, asset: string | null): Promise<void> {
    try {
      const { serveDashboard } = await (this.#dashboard ??= import('../dashboard/serve.js'));
      serveDashboard(req, res, asset);
    } catch {
      fail(res);
    }
  }

  #write(req: IncomingMessage, res: ServerResponse, answer: ControlAnswer): void {
    try {
      if (answeredOnSocket(req)) return;
      if (answer.stream !== undefined) {
        streamEvents(res, answer);
        return;
      }
      // The rest of a body over the limit is never read, so the connection cannot carry another request.
      if (answer.status === 413) {
        answerAndLinger(req, answer);
        return;
      }
      res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
      res.end(answer.body);
    } catch {
      fail(res);
    }
  }

  /**
   * Answers a request line without HTTP/1.0 or 1.1 as one Node could not parse: llhttp takes a
   * line without a version for HTTP/0.9, so a CR LF injected into a path would otherwise turn
   * what follows it into headers of a request that runs.
   */
  #answerOtherVersion(req: IncomingMessage, res: ServerResponse): void {
    const reason = `is not HTTP/1.0 or HTTP/1.1 (HTTP/${req.httpVersion})`;
    const { status, body: error } = envelopeOf(this.#service.variant).error(validationError({ request: [reason] }));
    const body = JSON.stringify(error);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    });
    res.end(body);
  }

  /** Answers a request Node could not parse, in the variant's envelope. */
  answerUnparsable(error: NodeJS.ErrnoException, socket: Socket): void {
    answerUnparsable(this.#service.variant, error, socket, this.#responses);
  }

  /** Answers CONNECT like any other method the API lacks (Node hands it over apart, as a tunnel request). */
  async answerConnect(req: IncomingMessage, socket: Socket): Promise<void> {
    const noBody = () => Promise.resolve(new ArrayBuffer(0));
    try {
      const request = nodeMockRequest(req, this.#origin, noBody);
      const block = requestBlock(request, this.#hosts);
      const answer =
        block === undefined ? await this.#service.answer(request) : blockedByService(this.#service.variant, block);
      answerOnSocket(socket, answer);
    } catch {
      socket.destroy();
    }
  }
}

/** How long a request may take to arrive, body included; a stalled one gets 408 and its connection closed. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The options with a random seed unless one was given: reachable from other machines, the mock must
 * not hand out the keys anyone can work out from the default seed (its API would be open to them).
 */
function withUnguessableKeys(options: Omit<MockHttpServerOptions, 'port' | 'host' | 'controlToken' | 'allowedHosts'>) {
  const { seed } = options;
  const given = typeof seed === 'number' || (typeof seed === 'object' && seed.random !== undefined);
  if (given) return options;
  const random = randomBytes(4).readUInt32BE();
  return { ...options, seed: typeof seed === 'object' ? { ...seed, random } : random };
}

/** The answer to a request the guard blocked, in the form of the route it asked for. */
function blocked(variant: Variant, method: string, pathname: string, block: RequestBlock): MockAnswer {
  if (isControlPath(pathname)) return controlError(403, block.message, block.details);
  if (dashboardAssetOf(method, pathname) !== undefined)
    return {
      status: 403,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      body: `${block.message}\n`,
    };
  return blockedByService(variant, block);
}

/** Most bytes of events a stream's reader may leave unread before it is dropped (it reconnects, and reloads). */
const STREAM_BACKLOG_BYTES = 1_048_576;

/** Writes Server-Sent Events until the reader leaves (or the server closes its connections, or it stops reading). */
function streamEvents(res: ServerResponse, answer: ControlAnswer): void {
  res.writeHead(answer.status, answer.headers);
  res.flushHeaders();
  const stop = answer.stream!.open((text) => {
    // A reader that does not read must not make the mock hold what it was sent.
    if (res.writableLength > STREAM_BACKLOG_BYTES) res.destroy();
    else res.write(text);
  });
  res.once('close', stop);
}

/** Where the dashboard's assets are served (scripts/dashboard.mjs names them so in the page); their names carry their hash. */
const DASHBOARD_ASSETS = '/_dashboard/';

/**
 * What a request asks of the dashboard: `GET` or `HEAD` of `/` is the page (null), of a path under
 * `/_dashboard/` an asset (its name); anything else is not the dashboard's (undefined).
 */
function dashboardAssetOf(method: string, pathname: string): string | null | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  if (pathname === '/') return null;
  return pathname.startsWith(DASHBOARD_ASSETS) ? pathname.slice(DASHBOARD_ASSETS.length) : undefined;
}

/** Whether `host` binds a loopback address only: then the control API needs no token, and the default seed is kept. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Who may call the control API of a server bound to `host`. */
function controlAccess(host: string, token: string | undefined): ControlAccess {
  return { token: isLoopback(host) ? token : (token ?? randomBytes(24).toString('base64url')) };
}

/**
 * The names and addresses of this machine, at which a server bound to `host` may be reached: the
 * mock refuses a webhook URL that points at any of them with its port (loopback aliases it knows itself).
 */
export function localHosts(host: string): string[] {
  const addresses = Object.values(networkInterfaces()).flatMap((found) => found?.map(({ address }) => address) ?? []);
  return [host, hostname(), ...addresses];
}

function checkControlToken(token: unknown): void {
  if (token === undefined) return;
  if (typeof token !== 'string' || !/^[\x21-\x7e]{16,}$/.test(token))
    throw new InvalidArgumentError(
      'The `controlToken` option must be at least 16 printable characters without spaces (a header carries it).',
    );
}
