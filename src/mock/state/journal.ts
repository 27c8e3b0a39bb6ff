// The request journal: what the service was asked and what it answered, the newest N kept within
// `HISTORY_BYTES`. An entry copies its cut of each body when it is recorded, never a view over the
// whole (which would keep it all); nothing is parsed, redacted or decoded until it is read.
import type { MockAnswer, MockRequest } from '../wire/request.js';
import { compilePath } from '../wire/path-pattern.js';
import type { RecordedRequest } from './records.js';
import { pageById, type IdPage } from './page.js';
import { bytesOf, Recent } from './recent.js';

/** How much an entry keeps: of a request body (bytes), of an answer's body, of its URL and of each header (characters). */
const KEPT = { requestBytes: 65_536, answerChars: 16_384, textChars: 8192 } as const;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** What stands for a secret in what the journal shows. */
const REDACTED = '[REDACTED]';
/** Headers whose value is a credential, whatever it is. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'x-api-key',
  'proxy-authorization',
  'cookie',
]);

/** Which entries `entries()` gives: a page by id (after, before, limit) of those that match. */
export interface RequestFilter extends IdPage {
  /** Only this method (any case). */
  method?: string | undefined;
  /** Only this path, or this template (`/contacts/{id}`). */
  path?: string | undefined;
  /** Only this status (`404`), or this class (`4xx`). */
  status?: string | undefined;
}

/** One request as recorded (copies, each within its cut), before it is read. */
interface Recorded {
  readonly id: number;
  readonly at: number;
  readonly method: string;
  readonly url: string;
  readonly path: string | null;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: KeptBody;
  /** The most the body can hold once read, in bytes (it may arrive after the entry was counted). */
  readonly bodyBytes: number;
  readonly durationMs: number;
  readonly answer: KeptAnswer | undefined;
}

/**
 * The body as far as it was read: a body read after the answer shows once it has arrived. An object
 * of its own, not a closure: a closure would share its scope with the request's, and keep the
 * server's whole request object (its socket, its parser) alive for as long as the entry.
 */
interface KeptBody {
  /** A copy of the body's first `KEPT.requestBytes`. */
  bytes: Uint8Array | undefined;
  /** Whether the body was longer. */
  cut: boolean;
}

/** An answer as recorded: its body cut to `KEPT.answerChars`, as UTF-8 bytes of its own. */
interface KeptAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array;
  readonly cut: boolean;
}

/** A request passed on to the service whose body, if the service reads it, the journal keeps. */
export interface WatchedRequest {
  readonly request: MockRequest;
  readonly body: KeptBody;
  /** Reads what the service did not: the journal shows what was sent, even to a route that refused it unread. */
  readRest(): Promise<void> | undefined;
}

/** The request journal of one mock. */
export class RequestJournal {
  readonly #entries: Recent<Recorded>;
  #nextId = 1;

  /** `size`: how many requests to keep, newest first (0: none, and recording costs nothing). */
  constructor(size: number) {
    this.#entries = new Recent(size, entryBytes);
  }

  /** Whether requests are recorded at all. */
  get on(): boolean {
    return this.#entries.max > 0;
  }

  /** `request`, with its body kept once the service reads it (the journal never reads a body itself). */
  watch(request: MockRequest): WatchedRequest {
    const body: KeptBody = { bytes: undefined, cut: false };
    const watched: MockRequest = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      arrayBuffer: async () => {
        const buffer = await request.arrayBuffer();
        // A copy of the cut: a view would keep the whole body for as long as the entry.
        body.bytes = new Uint8Array(buffer.slice(0, KEPT.requestBytes));
        body.cut = buffer.byteLength > KEPT.requestBytes;
        return buffer;
      },
    };
    return {
      request: watched,
      body,
      readRest: () =>
        body.bytes === undefined && mayHaveBody(request)
          ? watched.arrayBuffer().then(
              () => undefined,
              () => undefined,
            )
          : undefined,
    };
  }

  /** Records one request and its answer (undefined: an injected network error cut it). */
  record(
    request: WatchedRequest,
    path: string | null,
    at: number,
    durationMs: number,
    answer: MockAnswer | undefined,
  ): void {
    const { method, url, headers } = request.request;
    const { body } = request;
    this.#entries.push({
      id: this.#nextId++,
      at,
      method,
      url: kept(url),
      path: path === null ? null : kept(path),
      headers: keptHeaders(headers),
      body,
      bodyBytes: body.bytes?.byteLength ?? (mayHaveBody(request.request) ? KEPT.requestBytes : 0),
      durationMs,
      answer: answer === undefined ? undefined : keptAnswer(answer),
    });
  }

  /** The entries `filter` picks, oldest first, with every one of `secrets` replaced. */
  entries(filter: RequestFilter, secrets: readonly string[]): RecordedRequest[] {
    return pageById(this.#entries.toArray().filter(matcher(filter)), filter).map((entry) => shown(entry, secrets));
  }

  /** Forgets every entry (ids go on counting, so that a reader's `after` still works). */
  clear(): void {
    this.#entries.clear();
  }
}

function matcher({ method, path, status }: RequestFilter): (entry: Recorded) => boolean {
  const route = path === undefined ? undefined : compilePath(path).pattern;
  const upper = method?.toUpperCase();
  return (entry) =>
    (upper === undefined || entry.method === upper) &&
    (route === undefined || (entry.path !== null && route.test(entry.path))) &&
    (status === undefined || statusMatches(entry.answer?.status ?? 0, status));
}

function statusMatches(actual: number, wanted: string): boolean {
  return /^[1-5]xx$/i.test(wanted) ? Math.floor(actual / 100) === Number(wanted[0]) : actual === Number(wanted);
}

/** What an entry holds, in bytes, as `Recent` counts it. */
function entryBytes({ url, path, headers, bodyBytes, answer }: Recorded): number {
  const answerHeaders = Object.entries(answer?.headers ?? {}).flat();
  return bodyBytes + bytesOf(url, path, ...headers.flat(), answer?.body, ...answerHeaders);
}

/** `text` within `KEPT.textChars`: a longer one cut, and copied (a slice would keep the whole). */
function kept(text: string): string {
  return text.length <= KEPT.textChars ? text : decoder.decode(encoder.encode(`${text.slice(0, KEPT.textChars)}…`));
}

function keptHeaders(headers: MockRequest['headers']): Array<[string, string]> {
  const copied: Array<[string, string]> = [];
  headers.forEach?.((value, name) => copied.push([name.toLowerCase(), kept(value)]));
  return copied;
}

/** An answer as the journal keeps it: its body cut when it is recorded, not when it is read. */
function keptAnswer({ status, headers, body }: MockAnswer): KeptAnswer {
  const cut = body.length > KEPT.answerChars;
  return { status, headers: { ...headers }, body: encoder.encode(cut ? body.slice(0, KEPT.answerChars) : body), cut };
}

function shown(entry: Recorded, secrets: readonly string[]): RecordedRequest {
  const { answer } = entry;
  const answerBody =
    answer === undefined ? null : decodeBody(`${decoder.decode(answer.body)}${answer.cut ? '…' : ''}`, secrets);
  return {
    id: entry.id,
    at: entry.at,
    method: entry.method,
    path: entry.path === null ? null : redact(entry.path, secrets),
    url: shownUrl(entry.url, secrets),
    query: queryOf(entry.url, secrets),
    headers: requestHeaders(entry.headers, secrets),
    body: bodyOf(entry.body, secrets),
    status: answer?.status ?? 0,
    code: codeOf(answerBody),
    durationMs: entry.durationMs,
    response: answer === undefined ? null : { headers: { ...answer.headers }, body: answerBody },
  };
}

/** A request's path and query as the journal and the CLI show them: a URL that does not parse, as it came. */
export function shownUrl(url: string, secrets: readonly string[]): string {
  const parsed = parsedUrl(url);
  return redact(parsed === undefined ? url : `${parsed.pathname}${parsed.search}`, secrets);
}

function parsedUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

function queryOf(url: string, secrets: readonly string[]): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of parsedUrl(url)?.searchParams ?? []) {
    const clean = redact(value, secrets);
    const seen = query[name];
    query[name] = seen === undefined ? clean : [...(Array.isArray(seen) ? seen : [seen]), clean];
  }
  return query;
}

function requestHeaders(headers: Recorded['headers'], secrets: readonly string[]): Record<string, string> {
  const shownHeaders: Record<string, string> = {};
  for (const [name, value] of headers)
    shownHeaders[name] = CREDENTIAL_HEADERS.has(name) ? REDACTED : redact(value, secrets);
  return shownHeaders;
}

/** A body as the journal shows it: its JSON value when it is JSON, else its text. */
function decodeBody(text: string, secrets: readonly string[]): unknown {
  const clean = redact(text, secrets);
  try {
    return JSON.parse(clean) as unknown;
  } catch {
    return clean;
  }
}

function bodyOf({ bytes, cut }: KeptBody, secrets: readonly string[]): unknown {
  return bytes === undefined || bytes.byteLength === 0
    ? null
    : decodeBody(`${decoder.decode(bytes)}${cut ? '…' : ''}`, secrets);
}

function codeOf(body: unknown): string | null {
  const error = (body as { error?: { code?: unknown } } | null)?.error;
  return typeof error?.code === 'string' ? error.code : null;
}

/** Whether a request may carry a body the service did not read. */
function mayHaveBody(request: MockRequest): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  const { headers } = request;
  return (
    Number(headers.get('content-length') ?? 0) > 0 ||
    headers.get('transfer-encoding') !== null ||
    headers.get('content-type') !== null
  );
}

/** `text` with every one of `secrets` replaced. */
export function redact(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) if (secret !== '' && clean.includes(secret)) clean = clean.replaceAll(secret, REDACTED);
  return clean;
}
