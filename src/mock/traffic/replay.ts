// startMockReplay: serves a recording offline. A request gets the recorded answer whose method, path,
// query and body match after the same redaction; identical requests in recorded order, the last one
// repeating; a miss is 501 NO_RECORDING naming the closest recorded request and the fields that differ.
import { InvalidArgumentError } from '../../shared/errors.js';
import { serveHttp, type HttpService } from '../http/server.js';
import { HostAllowlist } from '../rules/guard/request-guard.js';
import type { MockAnswer, MockRequest } from '../wire/request.js';
import { trafficControl } from './control.js';
import { readRecording, type RecordingFile } from './recording/reader.js';
import { Redactor } from './recording/redaction.js';
import { recordedBody } from './recording/writer.js';
import type { RecordedBody } from './recording/format.js';
import { errorAnswer, outsideBase, trafficServer, type MockTrafficServer, type TrafficOptions } from './serve.js';
import { keyOf, TrafficService } from './service.js';

/** Options of `startMockReplay`. */
export interface MockReplayOptions extends TrafficOptions {
  /** The folder a proxy recorded into (`record`, `--record DIR`). */
  recording: string;
  /** Called with each request that has no recording (the bin prints it). */
  onMiss?: ((miss: ReplayMiss) => void) | undefined;
}

/** A request a replay had no recording for. */
export interface ReplayMiss {
  /** `POST /messages/send`. */
  readonly request: string;
  /** The closest recorded request and its file: `POST /messages/send (000003-post-messages-send.json)`. */
  readonly closest: string;
  /** The fields in which it differs (`body.to`, `query.page`). */
  readonly differing: readonly string[];
}

/** A running replay of a recording. */
export interface MockReplay extends MockTrafficServer {
  /** The recording's folder. */
  readonly recording: string;
}

/** The most fields a miss names. */
const NAMED_FIELDS = 20;

/** `startMockReplay`, loaded at its first call. */
export async function startReplay(options: MockReplayOptions): Promise<MockReplay> {
  const { port = 0, recording: dir, onMiss } = options;
  if (typeof dir !== 'string' || dir === '')
    throw new InvalidArgumentError('The `recording` option must be the folder a proxy recorded into.');
  const recording = readRecording(dir);
  const redactor = new Redactor(options.redactionKey);
  const answers = new RecordedAnswers(recording.files);
  let traffic: TrafficService | undefined;
  const served = await serveHttp({ port, host: '127.0.0.1', hosts: new HostAllowlist('127.0.0.1') }, (baseUrl) => {
    traffic = new TrafficService('replay', recording.variant, baseUrl, dir, redactor);
    return replayFace(traffic, redactor, answers, onMiss);
  });
  return { ...trafficServer(served, traffic!, () => undefined), recording: dir };
}

/** A request as the recording has it: redacted alike, and its key for matching. */
interface Asked extends RecordedBody {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string | string[]>;
}

/** The recorded answers by request, each with the next one to give. */
class RecordedAnswers {
  readonly #files: readonly RecordingFile[];
  readonly #byKey = new Map<string, { files: RecordingFile[]; next: number }>();

  constructor(files: readonly RecordingFile[]) {
    this.#files = files;
    for (const file of files) {
      const key = matchKey(file.exchange.request);
      const found = this.#byKey.get(key);
      if (found === undefined) this.#byKey.set(key, { files: [file], next: 0 });
      else found.files.push(file);
    }
  }

  /** The next recorded answer to `asked`: in recorded order, the last one repeating. */
  next(asked: Asked): RecordingFile | undefined {
    const found = this.#byKey.get(matchKey(asked));
    if (found === undefined) return undefined;
    const file = found.files[Math.min(found.next, found.files.length - 1)]!;
    found.next += 1;
    return file;
  }

  /**
   * The recorded request closest to `asked`, and the fields in which it differs: the same method
   * first, then the most path segments in common (in place), then a path as long, then the fewest
   * differing fields; the earliest recorded of equals.
   */
  closest(asked: Asked): { file: RecordingFile; differing: string[] } {
    const wanted = fieldsOf(asked);
    const segments = asked.path.split('/');
    let best: { file: RecordingFile; differing: string[]; rank: number[] } | undefined;
    for (const file of this.#files) {
      const { method, path } = file.exchange.request;
      const recorded = fieldsOf(file.exchange.request);
      const differing = [...new Set([...wanted.keys(), ...recorded.keys()])].filter(
        (field) => wanted.get(field) !== recorded.get(field),
      );
      const theirs = path.split('/');
      const rank = [
        method === asked.method ? 0 : 1,
        -segments.filter((segment, at) => theirs[at] === segment).length,
        Math.abs(theirs.length - segments.length),
        differing.length,
      ];
      if (best === undefined || before(rank, best.rank)) best = { file, differing, rank };
    }
    return best!;
  }
}

/** Whether `rank` comes before `other`: compared item by item, the first that differs decides. */
function before(rank: readonly number[], other: readonly number[]): boolean {
  const at = rank.findIndex((item, index) => item !== other[index]);
  return at !== -1 && rank[at]! < other[at]!;
}

function replayFace(
  traffic: TrafficService,
  redactor: Redactor,
  answers: RecordedAnswers,
  onMiss: ((miss: ReplayMiss) => void) | undefined,
): HttpService {
  const basePath = new URL(traffic.baseUrl).pathname;
  return {
    variant: traffic.variant,
    baseUrl: traffic.baseUrl,
    control: trafficControl(traffic),
    answer: (request) => {
      const { pathname, search } = new URL(request.url);
      if (request.method === 'CONNECT' || !(pathname === basePath || pathname.startsWith(`${basePath}/`)))
        return outsideBase(traffic, request);
      return replayed(traffic, redactor, answers, request, pathname.slice(basePath.length), search, onMiss);
    },
  };
}

/** The recorded answer to one request, or the miss; journaled either way. */
async function replayed(
  traffic: TrafficService,
  redactor: Redactor,
  answers: RecordedAnswers,
  request: MockRequest,
  path: string,
  search: string,
  onMiss: ((miss: ReplayMiss) => void) | undefined,
): Promise<MockAnswer> {
  const at = Date.now();
  const started = performance.now();
  const headers: Record<string, string> = {};
  request.headers.forEach?.((value, name) => (headers[name.toLowerCase()] = value));
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await request.arrayBuffer());
  } catch {
    return errorAnswer(traffic.variant, 413, 'PAYLOAD_TOO_LARGE', 'The request body is too large to replay.', {});
  }
  const key = keyOf(headers);
  const secrets = key === undefined ? [] : [key];
  const asked: Asked = {
    method: request.method,
    path: redactor.path(path, secrets),
    query: redactor.query(new URLSearchParams(search), secrets),
    ...(await recordedBody(bytes, redactor, secrets)),
  };
  const file = answers.next(asked);
  const answer = file === undefined ? missed(traffic, answers, asked, onMiss) : answerOf(file, redactor);
  void traffic.record({
    at,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
    method: request.method,
    path,
    search,
    requestHeaders: headers,
    requestBody: bytes,
    status: answer.status,
    responseHeaders: answer.headers,
    responseText: answer.body,
  });
  return answer;
}

/** A recorded answer, with the app's own numbers back where their placeholders are. */
function answerOf(file: RecordingFile, redactor: Redactor): MockAnswer {
  const { status, headers, body, text } = file.exchange.response;
  const shown = text ?? (body === null || body === undefined ? '' : JSON.stringify(body));
  const type = headers['content-type'] ?? (text === undefined && shown !== '' ? 'application/json' : undefined);
  return {
    status,
    headers: { ...headers, ...(type === undefined ? {} : { 'content-type': type }) },
    body: redactor.mapBack(shown),
  };
}

/** 501 NO_RECORDING in the variant's envelope, naming the closest recorded request and what differs. */
function missed(
  traffic: TrafficService,
  answers: RecordedAnswers,
  asked: Asked,
  onMiss: ((miss: ReplayMiss) => void) | undefined,
): MockAnswer {
  const { file, differing } = answers.closest(asked);
  const { method, path } = file.exchange.request;
  const miss: ReplayMiss = {
    request: `${asked.method} ${asked.path}`,
    closest: `${method} ${path} (${file.file})`,
    differing: differing.slice(0, NAMED_FIELDS),
  };
  onMiss?.(miss);
  return errorAnswer(
    traffic.variant,
    501,
    'NO_RECORDING',
    `The recording has no answer to ${miss.request}: the closest recorded request is ${miss.closest}, which differs in ${miss.differing.join(', ')}. Record this request with bizmsg-mock proxy --record, or send what was recorded.`,
    { closest: miss.closest, differing: miss.differing },
  );
}

/** The key identical requests share: method, path, query and body, each in one spelling. */
function matchKey(asked: Asked): string {
  return JSON.stringify([
    asked.method,
    asked.path,
    sorted(asked.query),
    sorted(asked.body ?? null),
    asked.text ?? null,
  ]);
}

/** The fields of a request, each with its value in one spelling: what a miss compares. */
function fieldsOf(asked: Asked): Map<string, string> {
  const fields = new Map<string, string>([
    ['method', asked.method],
    ['path', asked.path],
  ]);
  for (const [name, value] of Object.entries(asked.query)) fields.set(`query.${name}`, JSON.stringify(value));
  if (asked.text !== undefined) fields.set('body', asked.text);
  else flatten(asked.body ?? null, 'body', fields);
  return fields;
}

function flatten(value: unknown, path: string, fields: Map<string, string>): void {
  if (typeof value === 'object' && value !== null && Object.keys(value).length > 0) {
    for (const [key, item] of Object.entries(value))
      flatten(item, Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`, fields);
  } else fields.set(path, JSON.stringify(value));
}

/** A JSON value with its objects' keys sorted, so that key order makes no difference. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
  );
}
