// Answers written straight to a socket: requests Node's parser refused, and answers that close the connection.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
// Answers written straight to a socket: requests Node's parser refused, and answers that close the connection.
import type { Variant } from '../../contract/variant.js';
import { envelopeOf } from '../rules/envelope.js';
import type { MockAnswer } from '../wire/request.js';
import { validationError } from '../rules/validate.js';

/**
 * The responses in progress on each socket, so that an answer written straight to a socket
 * (Node's parser failed mid-request) never cuts into one that has started.
 */
export class ResponsesInProgress {
  readonly #bySocket = new WeakMap<Socket, Set<ServerResponse>>();

  /** Tracks `res` on its socket until it finishes; finished ones are dropped as the next arrives (no listener per response). */
  add(socket: Socket, res: ServerResponse): void {
    let responses = this.#bySocket.get(socket);
    if (responses === undefined) this.#bySocket.set(socket, (responses = new Set()));
    for (const earlier of responses) if (earlier.writableFinished || earlier.destroyed) responses.delete(earlier);
    responses.add(res);
  }

  /** Whether some response on `socket` has written its head and not finished. */
  started(socket: Socket): boolean {
    return [...(this.#bySocket.get(socket) ?? [])].some(
      (res) => res.headersSent && !res.writableFinished && !res.destroyed,
    );
  }

  /** Whether a request on `socket` was answered before its body was all parsed: a parse error now is in that body. */
  answeredMidBody(socket: Socket): boolean {
    return [...(this.#bySocket.get(socket) ?? [])].some((res) => res.headersSent && !res.req.complete);
  }
}

/**
 * Answers a request Node's HTTP parser rejected (a bad method token, a CR or LF where none may
 * be, headers over 16 KB, chunk sizes that are not hex) in the variant's envelope, as a
 * VALIDATION_ERROR, and closes the connection: nothing after such a request can be trusted.
 */
export function answerUnparsable(
  variant: Variant,
  error: NodeJS.ErrnoException,
  socket: Socket,
  responses: ResponsesInProgress,
): void {
  if (lingering.has(socket)) return;
  if (!socket.writable || responses.started(socket)) {
    socket.destroy();
    return;
  }
  // One request, one answer: its broken body only ends the connection (a second answer would be read as the next one's).
  if (responses.answeredMidBody(socket)) {
    linger(socket);
    return;
  }
  const reason =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'has headers over 16 KB'
      : `is not valid HTTP/1.1 (${error.code ?? 'unparsable'})`;
  const { status, body } = envelopeOf(variant).error(validationError({ request: [reason] }));
  writeAndClose(socket, status, { 'content-type': 'application/json' }, JSON.stringify(body));
}

/** Writes a whole answer straight to `socket` and closes it once sent. */
export function answerOnSocket(socket: Socket, answer: MockAnswer): void {
  writeAndClose(socket, answer.status, answer.headers, answer.body);
}

/**
 * Answers a request whose body is left unread (over the limit) and closes the connection the
 * way that lets the client read the answer: the answer, then our end of the connection, then
 * the rest of the body discarded (never stored) until the client closes, for at most
 * `LINGER_MS`. Closing at once would reset a connection the client is still writing to, and a
 * reset may take the unread answer with it.
 */
export function answerAndLinger(req: IncomingMessage, answer: MockAnswer): void {
  linger(req.socket, rawResponse(answer.status, answer.headers, answer.body));
  req.resume();
}

/** Sockets whose side is ended and whose incoming bytes are discarded: a parse error of those bytes is no request. */
const lingering = new WeakSet<Socket>();

/**
 * Ends our side of a connection after its last answer (`last`, if not yet written), and discards
 * what the client still sends until it closes, for at most `LINGER_MS`: destroying it at once
 * would reset it, and a reset may take an answer the client has not read yet with it.
 */
function linger(socket: Socket, last?: Buffer): void {
  lingering.add(socket);
  if (last === undefined) socket.end();
  else socket.end(last);
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/** Whether this request's connection was already answered and closed on the socket: nothing more may run for it. */
export function answeredOnSocket(req: IncomingMessage): boolean {
  return req.socket.writableEnded || req.socket.destroyed;
}

/** How long a connection closed after an unread body keeps discarding what the client still sends. */
const LINGER_MS = 2000;

function writeAndClose(socket: Socket, status: number, headers: Readonly<Record<string, string>>, body: string): void {
  // Destroyed once sent: a half-closed socket would keep a request Node gave up on waiting.
  socket.end(rawResponse(status, headers, body), () => socket.destroy());
}

function rawResponse(status: number, headers: Readonly<Record<string, string>>, body: string): Buffer {
  const head = Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return Buffer.concat([
    Buffer.from(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${head}\r\n`, 'latin1'),
    Buffer.from(body),
  ]);
}
