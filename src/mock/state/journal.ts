// The request journal: what the service was asked and what it answered, the newest N kept. Cheap
// to record (references, no copies, nothing parsed); redacted and decoded only when read.
import type { MockAnswer, MockRequest } from '../rules/request.js';
import { compilePath } from '../rules/path-pattern.js';
import type { JournalEntry } from './records.js';
import { pageById, type IdPage } from './page.js';
import { Recent } from './recent.js';

/** How much of a request body, and of an answer's body, an entry keeps. */
const KEPT = { requestBytes: 65_536, answerChars: 16_384 } as const;
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
export interface JournalFilter extends IdPage {
  /** Only this method (any case). */
  method?: string;
  /** Only this path, or this template (`/contacts/{id}`). */
  path?: string;
  /** Only this status (`404`), or this class (`4xx`). */
  status?: string;
}

/** One request as recorded, before it is read. */
interface Recorded {
  readonly id: number;
  readonly at: number;
  readonly method: string;
  readonly url: string;
  readonly path: string | null;
  readonly headers: MockRequest['headers'];
  readonly body: KeptBody;
  readonly durationMs: number;
  readonly answer: MockAnswer | undefined;
}

/**
 * The body as far as it was read: a body read after the answer shows once it has arrived. An object
 * of its own, not a closure: a closure would share its scope with the request's, and keep the
 * server's whole request object (its socket, its parser) alive for as long as the entry.
 */
interface KeptBody {
  bytes: Uint8Array | undefined;
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
    this.#entries = new Recent(size);
  }

  /** Whether requests are recorded at all. */
  get on(): boolean {
    return this.#entries.max > 0;
  }

  /** `request`, with its body kept once the service reads it (the journal never reads a body itself). */
  watch(request: MockRequest): WatchedRequest {
    const body: KeptBody = { bytes: undefined };
    const watched: MockRequest = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      arrayBuffer: async () => {
        const buffer = await request.arrayBuffer();
        body.bytes = new Uint8Array(buffer, 0, Math.min(buffer.byteLength, KEPT.requestBytes));
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
    this.#entries.push({
      id: this.#nextId++,
      at,
      method,
      url,
      path,
      headers,
      body: request.body,
      durationMs,
      answer,
    });
  }

  /** The entries `filter` picks, oldest first, with every one of `secrets` replaced. */
  entries(filter: JournalFilter, secrets: readonly string[]): JournalEntry[] {
    return pageById(this.#entries.toArray().filter(matcher(filter)), filter).map((entry) => shown(entry, secrets));
  }

  /** Forgets every entry (ids go on counting, so that a reader's `after` still works). */
  clear(): void {
    this.#entries.clear();
  }
}

function matcher({ method, path, status }: JournalFilter): (entry: Recorded) => boolean {
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

function shown(entry: Recorded, secrets: readonly string[]): JournalEntry {
  const { answer } = entry;
  const answerBody = answer === undefined ? null : decodeBody(cut(answer.body), secrets);
  return {
    id: entry.id,
    at: entry.at,
    method: entry.method,
    path: entry.path === null ? null : redact(entry.path, secrets),
    url: shownUrl(entry.url, secrets),
    query: queryOf(entry.url, secrets),
    headers: requestHeaders(entry.headers, secrets),
    body: bodyOf(entry.body.bytes, secrets),
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

function requestHeaders(headers: MockRequest['headers'], secrets: readonly string[]): Record<string, string> {
  const shownHeaders: Record<string, string> = {};
  headers.forEach?.((value, name) => {
    const lower = name.toLowerCase();
    shownHeaders[lower] = CREDENTIAL_HEADERS.has(lower) ? REDACTED : redact(value, secrets);
  });
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

function bodyOf(bytes: Uint8Array | undefined, secrets: readonly string[]): unknown {
  return bytes === undefined || bytes.byteLength === 0 ? null : decodeBody(decode(bytes), secrets);
}

function codeOf(body: unknown): string | null {
  const error = (body as { error?: { code?: unknown } } | null)?.error;
  return typeof error?.code === 'string' ? error.code : null;
}

function decode(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes);
  return bytes.byteLength === KEPT.requestBytes ? `${text}…` : text;
}

function cut(text: string): string {
  return text.length > KEPT.answerChars ? `${text.slice(0, KEPT.answerChars)}…` : text;
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
