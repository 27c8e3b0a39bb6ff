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

/** Which entries `entries()` gives: a page by id (after, before, the newest `limit`) of those that match. */
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
  readonly path: string;
  readonly headers: MockRequest['headers'];
  readonly body: Uint8Array | undefined;
  readonly durationMs: number;
  readonly answer: MockAnswer | undefined;
}

/** A request passed on to the service whose body, if the service reads it, the journal keeps. */
export interface WatchedRequest {
  readonly request: MockRequest;
  body(): Uint8Array | undefined;
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
    let bytes: Uint8Array | undefined;
    const watched: MockRequest = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      arrayBuffer: async () => {
        const buffer = await request.arrayBuffer();
        bytes = new Uint8Array(buffer, 0, Math.min(buffer.byteLength, KEPT.requestBytes));
        return buffer;
      },
    };
    return { request: watched, body: () => bytes };
  }

  /** Records one request and its answer (undefined: an injected network error cut it). */
  record(request: WatchedRequest, path: string, at: number, durationMs: number, answer: MockAnswer | undefined): void {
    const { method, url, headers } = request.request;
    this.#entries.push({
      id: this.#nextId++,
      at,
      method,
      url,
      path,
      headers,
      body: request.body(),
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
    (route === undefined || route.test(entry.path)) &&
    (status === undefined || statusMatches(entry.answer?.status ?? 0, status));
}

function statusMatches(actual: number, wanted: string): boolean {
  return /^[1-5]xx$/i.test(wanted) ? Math.floor(actual / 100) === Number(wanted[0]) : actual === Number(wanted);
}

function shown(entry: Recorded, secrets: readonly string[]): JournalEntry {
  const url = new URL(entry.url);
  const { answer } = entry;
  const answerBody = answer === undefined ? null : decodeBody(cut(answer.body), secrets);
  return {
    id: entry.id,
    at: entry.at,
    method: entry.method,
    path: redact(entry.path, secrets),
    query: queryOf(url, secrets),
    headers: requestHeaders(entry.headers, secrets),
    body: entry.body === undefined || entry.body.byteLength === 0 ? null : decodeBody(decode(entry.body), secrets),
    status: answer?.status ?? 0,
    code: codeOf(answerBody),
    durationMs: entry.durationMs,
    response: answer === undefined ? null : { headers: { ...answer.headers }, body: answerBody },
  };
}

function queryOf(url: URL, secrets: readonly string[]): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
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

function redact(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) if (secret !== '' && clean.includes(secret)) clean = clean.replaceAll(secret, REDACTED);
  return clean;
}
