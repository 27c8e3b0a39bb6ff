import { connect, type Socket } from 'node:net';

/** One HTTP/1.1 response as it came off the wire. */
export interface WireResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: string;
}

/**
 * A raw loopback TCP connection speaking HTTP/1.1 by hand, for requests no HTTP client would
 * send (bad methods, CR/LF in odd places, bodies cut short) and to watch what the server does
 * with the connection afterwards.
 */
export class RawConnection {
  readonly #socket: Socket;
  #buffer = Buffer.alloc(0);
  #ended = false;
  #waiters: Array<() => void> = [];
  /** How the server left the connection: 'end' (a clean FIN) or the socket error's code. */
  closedBy: string | undefined;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#wake();
    });
    socket.on('end', () => this.#close('end'));
    socket.on('error', (error: NodeJS.ErrnoException) => this.#close(error.code ?? 'error'));
    socket.on('close', () => this.#close('close'));
  }

  /** Opens a connection to 127.0.0.1:`port`. */
  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends bytes as they are; a write the server refused (it closed) is ignored. */
  write(data: string | Buffer): void {
    if (!this.#socket.destroyed) this.#socket.write(data, () => undefined);
  }

  /**
   * The next complete response, or undefined once the server closed the connection without
   * one. Rejects after `timeoutMs`: a server that neither answers nor closes hangs.
   */
  async response({ timeoutMs = 5000, head = false }: { timeoutMs?: number; head?: boolean } = {}): Promise<
    WireResponse | undefined
  > {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.#parse(head);
      if (parsed !== undefined) return parsed;
      if (this.#ended) return undefined;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `No response and no close within ${timeoutMs} ms; received so far: ${JSON.stringify(this.#buffer.toString('latin1').slice(0, 300))}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Resolves with how the server closed the connection; rejects if it is still open after `timeoutMs`. */
  async closed(timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#ended) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`The connection is still open after ${timeoutMs} ms.`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closedBy!;
  }

  /** Closes the connection from this side. */
  destroy(): void {
    this.#socket.destroy();
  }

  #close(how: string): void {
    if (this.#ended) return;
    this.#ended = true;
    this.closedBy = how;
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** Takes one complete response off the buffer, if there is one. */
  #parse(head: boolean): WireResponse | undefined {
    const end = this.#buffer.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine, ...lines] = this.#buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
    const start = end + 4;
    let body: Buffer;
    let rest: Buffer;
    if (head) {
      body = Buffer.alloc(0);
      rest = this.#buffer.subarray(start);
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (this.#buffer.length < start + length) return undefined;
      body = this.#buffer.subarray(start, start + length);
      rest = this.#buffer.subarray(start + length);
    } else if (headers['transfer-encoding'] === 'chunked') {
      const decoded = dechunk(this.#buffer.subarray(start));
      if (decoded === undefined) return undefined;
      [body, rest] = decoded;
    } else {
      // No length: the body runs to the end of the connection.
      if (!this.#ended) return undefined;
      body = this.#buffer.subarray(start);
      rest = Buffer.alloc(0);
    }
    this.#buffer = Buffer.from(rest);
    return { status, headers, body: body.toString('utf8') };
  }
}

/** A chunked body decoded, and what follows it; undefined while incomplete. */
function dechunk(data: Buffer): [Buffer, Buffer] | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) {
      const trailerEnd = data.indexOf('\r\n', lineEnd + 2);
      return trailerEnd < 0 ? undefined : [Buffer.concat(parts), data.subarray(trailerEnd + 2)];
    }
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** A request as bytes: request line, headers (content-length added for a body unless given) and body. */
export function rawRequest(
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Buffer {
  const all: Record<string, string> = { host: '127.0.0.1', ...headers };
  const hasLength = Object.keys(all).some((name) =>
    ['content-length', 'transfer-encoding'].includes(name.toLowerCase()),
  );
  if (body !== undefined && !hasLength) all['content-length'] = String(Buffer.byteLength(body));
  const head = `${method} ${target} HTTP/1.1\r\n${Object.entries(all)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body === undefined ? Buffer.alloc(0) : Buffer.from(body)]);
}

/** A body in chunked transfer encoding, split at `cuts` (byte offsets). */
export function chunked(body: Buffer, cuts: readonly number[] = []): Buffer {
  const points = [...new Set(cuts.map((cut) => Math.min(Math.max(cut, 0), body.length)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const to of [...points, body.length]) {
    if (to > from)
      pieces.push(Buffer.from(`${(to - from).toString(16)}\r\n`), body.subarray(from, to), Buffer.from('\r\n'));
    from = to;
  }
  pieces.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(pieces);
}

/** A one-request exchange on a fresh connection: the response (or undefined if the server closed without one). */
export async function exchange(
  port: number,
  request: Buffer,
  options?: { timeoutMs?: number; head?: boolean },
): Promise<WireResponse | undefined> {
  const connection = await RawConnection.open(port);
  try {
    connection.write(request);
    return await connection.response(options);
  } finally {
    connection.destroy();
  }
}
