// What a proxy to the real service and a replay of its recording share: the variant and base URL,
// the request journal (as the mock's, bounded), the listeners the stream and the bin's lines follow,
// and the control API they serve.
import type { Variant } from '../../contract/variant.js';
import type { MockActivity } from '../service.js';
import { RequestJournal, shownUrl, type RequestFilter } from '../state/journal.js';
import type { RecordedRequest } from '../state/records.js';
import { checkArguments, JournalQuery } from '../calls/schemas.js';
import type { MockRequest } from '../wire/request.js';
import type { Exchange } from './exchange.js';
import type { DriftFindings } from './findings.js';
import { withoutSecrets, type Redactor } from './recording/redaction.js';

/** Which kind of server: a proxy to the real service, or a replay of a recording of it. */
export type TrafficMode = 'proxy' | 'replay';

/** How many requests the journal keeps, as the mock's. */
const HISTORY = 1000;
const decoder = new TextDecoder();
/**
 * The longest body the journal redacts as parsed JSON: it keeps at most 64 KiB of one, so a longer
 * one is cut to that and redacted as text (a flood of large bodies costs no more than is kept).
 */
const PARSED_CHARS = 65_536;

/** One request and answer, as the journal and the listeners get it: the answer's body as text. */
export interface JournaledExchange extends Omit<Exchange, 'responseBody'> {
  /** The answer's body as text (decoded from its content encoding), or undefined when it was not copied. */
  readonly responseText: string | undefined;
}

/** The state of a proxy or replay that its control API and dashboard show. */
export class TrafficService {
  readonly mode: TrafficMode;
  readonly variant: Variant;
  /** Its own base URL, ending with `/api/v1`. */
  readonly baseUrl: string;
  /** The service's base URL (a proxy), or the recording's folder (a replay). */
  readonly source: string;
  /** The drift report (a proxy), or undefined (a replay). */
  readonly findings: DriftFindings | undefined;
  /** Real time: a proxy or replay has no virtual clock. */
  readonly clock = { date: (): Date => new Date() };
  readonly #journal = new RequestJournal(HISTORY);
  readonly #listeners = new Set<(activity: MockActivity) => void>();
  readonly #basePath: string;
  readonly #redactor: Redactor;

  /** `redactor`: what the journal keeps is redacted by it as a recording is (`findings`: a proxy's drift report). */
  constructor(
    mode: TrafficMode,
    variant: Variant,
    baseUrl: string,
    source: string,
    redactor: Redactor,
    findings?: DriftFindings,
  ) {
    this.mode = mode;
    this.#redactor = redactor;
    this.variant = variant;
    this.baseUrl = baseUrl;
    this.source = source;
    this.findings = findings;
    this.#basePath = new URL(baseUrl).pathname;
  }

  /** Calls `listener` with each request answered from now on; returns the function that stops it. */
  subscribe(listener: (activity: MockActivity) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The request journal, as the mock's: oldest first, credential headers and the API keys redacted. */
  requests(filter: RequestFilter = {}): RecordedRequest[] {
    return this.#journal.entries(checkArguments(JournalQuery, filter, 'requests'), []);
  }

  /** Journals one exchange, redacted as a recording is (the key, secrets, numbers), and tells the listeners. */
  async record(exchange: JournaledExchange): Promise<void> {
    const key = keyOf(exchange.requestHeaders);
    const secrets = key === undefined ? [] : [key];
    const redactor = this.#redactor;
    const clean = async (text: string) => {
      if (text.length <= PARSED_CHARS) {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          // Not JSON: redacted as text.
        }
        if (json !== undefined) return JSON.stringify(await redactor.body(json, secrets));
      }
      return redactor.text(text.slice(0, PARSED_CHARS + 1), secrets);
    };
    const path = redactor.path(exchange.path, secrets);
    const query = new URLSearchParams();
    for (const [name, values] of Object.entries(redactor.query(new URLSearchParams(exchange.search), secrets)))
      for (const value of [values].flat()) query.append(name, value);
    const search = query.size === 0 ? '' : `?${query}`;
    const url = `${new URL(this.baseUrl).origin}${this.#basePath}${path}${search}`;
    const body =
      exchange.requestBody === undefined
        ? undefined
        : new TextEncoder().encode(await clean(decoder.decode(exchange.requestBody)));
    const request: MockRequest = {
      method: exchange.method,
      url,
      headers: headersOf(exchange.requestHeaders),
      arrayBuffer: () => Promise.resolve((body ?? new Uint8Array(0)).slice().buffer),
    };
    const watched = this.#journal.watch(request);
    // The journal keeps its copy of the body once read.
    await watched.request.arrayBuffer();
    const answer =
      exchange.status === 0
        ? undefined
        : {
            status: exchange.status,
            headers: withoutCookies(exchange.responseHeaders, secrets),
            body:
              exchange.responseText === undefined || exchange.responseText === ''
                ? ''
                : await clean(exchange.responseText),
          };
    this.#journal.record(watched, path, exchange.at, exchange.durationMs, answer);
    const activity: MockActivity = {
      kind: 'request',
      method: exchange.method,
      path,
      url: shownUrl(url, []),
      status: exchange.status,
      durationMs: exchange.durationMs,
    };
    for (const listener of this.#listeners) {
      try {
        listener(activity);
      } catch {
        // A listener that throws must not break the exchange it hears about.
      }
    }
  }
}

/** A key shorter than this is replaced in the credential headers only: replaced in text, it would cut words apart ("te[REDACTED]t"). */
const SHORTEST_KEY = 8;

/** The API key a request carries, in either variant's header, to be replaced wherever else it appears. */
export function keyOf(headers: Readonly<Record<string, string>>): string | undefined {
  const key = headers['x-api-key'] ?? /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
  return key === undefined || key.length < SHORTEST_KEY ? undefined : key;
}

function headersOf(headers: Readonly<Record<string, string>>): MockRequest['headers'] {
  return {
    get: (name) => headers[name.toLowerCase()] ?? null,
    forEach: (each) => {
      for (const [name, value] of Object.entries(headers)) each(value, name);
    },
  };
}

/** An answer's headers without the cookies it sets, and `secrets` replaced (a service that echoes the key): the journal shows no credential. */
function withoutCookies(headers: Readonly<Record<string, string>>, secrets: readonly string[]): Record<string, string> {
  const { 'set-cookie': _cookies, ...rest } = headers;
  return Object.fromEntries(Object.entries(rest).map(([name, value]) => [name, withoutSecrets(value, secrets)]));
}
