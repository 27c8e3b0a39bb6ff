// The clients' default exchange on Node: an attempt goes straight to the dispatcher Node's own fetch
// would send it through, without the Request, streams and Response fetch builds around it.
import { decodeBody, contentCodings } from './content-coding.node.js';
import { fetchExchange, type Answer, type Exchange } from './exchange.js';

/** Where undici, Node's fetch, keeps the dispatcher every fetch goes through: Node's own, or a user's proxy or mock agent. */
const DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/**
 * Methods sent directly. A redirect is answered by sending the request again through fetch, which
 * follows it: harmless for these, but a POST answered 302 may have been acted on (post/redirect/get),
 * so POSTs always go through fetch.
 */
const DIRECT_METHODS: ReadonlySet<string> = new Set(['GET', 'PUT', 'DELETE']);
/** Statuses fetch follows when they carry a Location. */
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Node's own fetch, by its source: Node 20.0 calls `lazyUndici()`, later versions require undici by this path. */
const NODE_FETCH = /\blazyUndici\(\)|'internal\/deps\/undici\/undici'/;

/** The handler undici's `dispatch` calls back (its first API, which every undici Node ships takes). */
interface DispatchHandler {
  onConnect(abort: (reason?: unknown) => void): void;
  onHeaders(status: number, rawHeaders: Uint8Array[], resume: () => void, statusText: string): boolean;
  onData(chunk: Uint8Array): boolean;
  onComplete(trailers: unknown): void;
  onError(error: Error): void;
}

/** What an exchange needs of an undici dispatcher. */
interface Dispatcher {
  dispatch(
    options: { origin: string; path: string; method: string; headers: Record<string, string>; body: string | null },
    handler: DispatchHandler,
  ): boolean;
}

/** What a direct attempt resolves with when the answer is a redirect: fetch must send it again. */
const REDIRECTED = Symbol('redirected');

/**
 * The exchange of a client without the `fetch` option, on Node. While `globalThis.fetch` is Node's
 * own (msw or a test's stub replaces it: then it is called), an attempt is dispatched straight to
 * the dispatcher that fetch would use, with the headers fetch would add, and its body decoded as
 * fetch would: the same bytes on the wire, through the same connections, proxy or mock agent, at
 * about a third of fetch's cost. Requests go through fetch until fetch has answered one from the
 * client's origin (so that Node has accepted its scheme and port, and made its dispatcher), and
 * for good once a redirect was seen. `direct` is false when the user's hooks may change requests.
 */
export function defaultExchange(direct: boolean): Exchange {
  const viaFetch = fetchExchange((input, init) => globalThis.fetch(input, init));
  if (!direct || !knownUserAgent()) return viaFetch;
  let proven: string | undefined;
  let redirected = false;
  return async (input, init, body) => {
    const dispatcher = proven === undefined || redirected ? undefined : directRoute(input, init, proven);
    if (dispatcher === undefined) {
      const own = isNodeFetch(globalThis.fetch);
      const answer = await viaFetch(input, init);
      if (answer.response.redirected) redirected = true;
      if (own) proven ??= new URL(input.url).origin;
      return answer;
    }
    const answer = await send(dispatcher, input, proven!, body);
    if (answer !== REDIRECTED) return answer;
    redirected = true;
    return viaFetch(input, init);
  };
}

/** The dispatcher to send `input` to directly, or undefined when it must go through fetch. */
function directRoute(input: Request, init: RequestInit | undefined, origin: string): Dispatcher | undefined {
  if (!isNodeFetch(globalThis.fetch) || !DIRECT_METHODS.has(input.method)) return undefined;
  if (!input.url.startsWith(`${origin}/`) || (init !== undefined && Object.keys(init).length > 0)) return undefined;
  const dispatcher = (globalThis as Record<symbol, unknown>)[DISPATCHER] as Partial<Dispatcher> | undefined;
  return typeof dispatcher?.dispatch === 'function' ? (dispatcher as Dispatcher) : undefined;
}

let checked: unknown;
let own = false;

/** Whether `fetch` is Node's own, remembered for the last function asked about. */
function isNodeFetch(fetch: unknown): boolean {
  if (fetch !== checked) {
    checked = fetch;
    own = typeof fetch === 'function' && NODE_FETCH.test(Function.prototype.toString.call(fetch));
  }
  return own;
}

/** undici 6 and 7 send `User-Agent: node`; Node 20's first releases had undici 5 ("undici"): those stay on fetch. */
function knownUserAgent(): boolean {
  const version = (globalThis as { process?: { versions?: { undici?: string } } }).process?.versions?.undici;
  return version !== undefined && Number(version.split('.')[0]) >= 6;
}

/** Dispatches one attempt; resolves when its headers are in, as fetch does. */
function send(
  dispatcher: Dispatcher,
  input: Request,
  origin: string,
  body: string | undefined,
): Promise<Answer | typeof REDIRECTED> {
  const { signal } = input;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const received = new ReceivedBody();
    let abort: ((reason?: unknown) => void) | undefined;
    let answered = false;
    const onAbort = () => abort?.(signal.reason);
    const settle = () => signal.removeEventListener('abort', onAbort);
    signal.addEventListener('abort', onAbort, { once: true });
    const options = {
      origin,
      path: input.url.slice(origin.length),
      method: input.method,
      headers: requestHeaders(input.headers, origin),
      body: body ?? null,
    };
    dispatcher.dispatch(options, {
      onConnect(abortAttempt) {
        abort = abortAttempt;
        if (signal.aborted) abortAttempt(signal.reason);
      },
      onHeaders(status, rawHeaders, _resume, statusText) {
        if (status < 200) return true;
        answered = true;
        const headers = responseHeaders(rawHeaders);
        if (REDIRECTS.has(status) && headers.has('location')) {
          // fetch follows it; the body is read and dropped so that the connection stays usable.
          received.drop();
          resolve(REDIRECTED);
          return true;
        }
        const codings = contentCodings(input.method, status, headers);
        if (codings instanceof Error) {
          abort?.(codings);
          return false;
        }
        const response = responseOf(status, statusText, headers);
        if (response instanceof Error) {
          abort?.(response);
          return false;
        }
        resolve({ response, text: () => received.text(codings) });
        return true;
      },
      onData(chunk) {
        received.push(chunk);
        return true;
      },
      onComplete() {
        settle();
        received.end();
      },
      onError(error) {
        settle();
        const reason = signal.aborted ? (signal.reason as Error) : error;
        if (!answered) reject(signal.aborted ? reason : new TypeError('fetch failed', { cause: error }));
        received.fail(signal.aborted ? reason : new TypeError('terminated', { cause: error }));
      },
    });
  });
}

/** The headers fetch sends: the request's own, and those fetch adds where the request has none. */
function requestHeaders(own: Headers, origin: string): Record<string, string> {
  const headers: Record<string, string> = {};
  own.forEach((value, name) => {
    headers[name] = value;
  });
  headers['accept'] ??= '*/*';
  headers['accept-language'] ??= '*';
  headers['sec-fetch-mode'] = 'cors';
  headers['user-agent'] ??= 'node';
  headers['accept-encoding'] ??= origin.startsWith('https:') ? 'br, gzip, deflate' : 'gzip, deflate';
  delete headers['host'];
  return headers;
}

/** Response headers from undici's raw name/value pairs, as fetch reads them (Latin-1). */
function responseHeaders(raw: Uint8Array[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(latin1(raw[i]!), latin1(raw[i + 1]!));
  return headers;
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/**
 * The body-less Response ky sees (the transport keeps the text apart). A reason phrase the Response
 * constructor refuses is dropped, as fetch has no such check; a status it refuses (beyond 599) is an error.
 */
function responseOf(status: number, statusText: string, headers: Headers): Response | Error {
  try {
    return new Response(null, { status, statusText, headers });
  } catch {
    try {
      return new Response(null, { status, headers });
    } catch (error) {
      return error as Error;
    }
  }
}

/** The body of an attempt as it arrives, read once as text. */
class ReceivedBody {
  readonly #chunks: Uint8Array[] = [];
  #ended = false;
  #dropped = false;
  #error: Error | undefined;
  #waiting: (() => void) | undefined;

  push(chunk: Uint8Array): void {
    if (!this.#dropped) this.#chunks.push(chunk);
  }

  drop(): void {
    this.#dropped = true;
  }

  end(): void {
    this.#ended = true;
    this.#waiting?.();
  }

  fail(error: Error): void {
    this.#error ??= error;
    this.#waiting?.();
  }

  /** The whole body, decoded, as UTF-8 text (a leading BOM removed, as fetch's `text()` does). */
  async text(codings: readonly string[]): Promise<string> {
    if (!this.#ended && this.#error === undefined) await new Promise<void>((wake) => (this.#waiting = wake));
    if (this.#error !== undefined) throw this.#error;
    const bytes = await decodeBody(Buffer.concat(this.#chunks), codings);
    const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    return bytes.toString('utf8', start);
  }
}
