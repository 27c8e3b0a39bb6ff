// The mock over real HTTP (node:http): startMockHttpServer, what the bizmsg-mock bin runs.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { envelopeOf } from '../rules/envelope.js';
import { nodeMockRequest } from './node-request.js';
import type { MockServerOptions } from '../options.js';
import type { MockAnswer } from '../rules/request.js';
import { MockService } from '../service.js';
import {
  answerAndLinger,
  answeredOnSocket,
  answerOnSocket,
  answerUnparsable,
  ResponsesInProgress,
} from './socket-answers.js';
import { validationError } from '../rules/validate.js';

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
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/api/v1`;
  const mock = new MockService({ ...mockOptions, baseUrl: url });
  // Attached in the same tick as listen() resolved: no connection is handled before the mock knows its URL.
  const adapter = new NodeAdapter(mock);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => adapter.serve(req, res));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => adapter.answerUnparsable(error, socket));
  server.on('connect', (req: IncomingMessage, socket: Socket) => void adapter.answerConnect(req, socket));
  return {
    url,
    apiKey: mock.apiKey,
    mock,
    close: () =>
      new Promise<void>((resolve) => {
        mock.stop();
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

/** Carries requests from node:http to the mock and its answers back. */
class NodeAdapter {
  readonly #mock: MockService;
  readonly #origin: string;
  readonly #responses = new ResponsesInProgress();

  constructor(mock: MockService) {
    this.#mock = mock;
    this.#origin = new URL(mock.baseUrl).origin;
  }

  /** Answers one request: at once when the mock can, like a plain node:http handler. */
  serve(req: IncomingMessage, res: ServerResponse): void {
    // A request pipelined behind one answered on the socket: it will get no answer, so it must not run.
    if (answeredOnSocket(req)) return;
    this.#responses.add(req.socket, res);
    if (req.httpVersionMajor !== 1) {
      this.#answerOtherVersion(req, res);
      return;
    }
    let answer: MockAnswer | Promise<MockAnswer>;
    try {
      answer = this.#mock.answer(nodeMockRequest(req, this.#origin));
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

  #write(req: IncomingMessage, res: ServerResponse, answer: MockAnswer): void {
    try {
      if (answeredOnSocket(req)) return;
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
    const { status, body: error } = envelopeOf(this.#mock.variant).error(validationError({ request: [reason] }));
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
    answerUnparsable(this.#mock.variant, error, socket, this.#responses);
  }

  /** Answers CONNECT like any other method the API lacks (Node hands it over apart, as a tunnel request). */
  async answerConnect(req: IncomingMessage, socket: Socket): Promise<void> {
    const noBody = () => Promise.resolve(new ArrayBuffer(0));
    try {
      answerOnSocket(socket, await this.#mock.answer(nodeMockRequest(req, this.#origin, noBody)));
    } catch {
      socket.destroy();
    }
  }
}
