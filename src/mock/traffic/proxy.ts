// startMockProxy: a local server whose /api/v1 forwards each request to the real service and its
// answer back unchanged, checks each exchange against the contract (the drift report), and with
// `record` writes each exchange, redacted, into a folder the replay serves.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Variant } from '../../contract/variant.js';
import { showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { localHosts, serveHttp, type HttpService } from '../http/server.js';
import { HostAllowlist } from '../rules/guard/request-guard.js';
import { OwnServer } from '../rules/guard/own-server.js';
import { ContractChecks } from './checks.js';
import { trafficControl } from './control.js';
import type { Exchange } from './exchange.js';
import { DriftFindings, type DriftFinding, type ProxyDriftReport } from './findings.js';
import { Upstream } from './forward.js';
import { Redactor } from './recording/redaction.js';
import { DEFAULT_RECORD_LIMIT, RecordingWriter } from './recording/writer.js';
import { errorAnswer, outsideBase, trafficServer, type MockTrafficServer, type TrafficOptions } from './serve.js';
import { checkVariant } from '../service.js';
import { TrafficService } from './service.js';

/** Options of `startMockProxy`. */
export interface MockProxyOptions extends TrafficOptions {
  /** The service's base URL: absolute http(s), ending with `/api/v1`. */
  target: string;
  /** The variant whose contract the traffic is checked against (default 2). */
  variant?: Variant | undefined;
  /** A folder to record each exchange into, redacted: one JSON file per exchange, readable by its owner only. */
  record?: string | undefined;
  /**
   * The most bytes the recording's files may hold (default 256 MiB): past it, new exchanges are
   * counted (`unrecorded`) and not written.
   */
  recordLimit?: number | undefined;
  /** Called once when an exchange is first not written because the recording reached `recordLimit` (the bin prints it). */
  onRecordingFull?: ((recordLimit: number) => void) | undefined;
  /** Called with each finding the first time it is seen (the bin prints it). */
  onFinding?: ((finding: DriftFinding) => void) | undefined;
}

/** A running proxy to the real service. */
export interface MockProxy extends MockTrafficServer {
  /** The service's base URL it forwards to. */
  readonly target: string;
  /** Every finding so far (what `GET /_bizmsg/drift` answers). */
  drift(): ProxyDriftReport;
  /** How many exchanges were not recorded (the recording was full, writing fell behind, or failed); 0 without `record`. */
  readonly unrecorded: number;
  /** Resolves once every exchange under way is answered, journaled, checked and written. */
  settled(): Promise<void>;
}

/** `startMockProxy`, loaded at its first call. */
export async function startProxy(options: MockProxyOptions): Promise<MockProxy> {
  const { port = 0, record, onFinding } = options;
  const target = checkedTarget(options.target);
  const variant = checkVariant(options.variant ?? 2);
  const redactor = new Redactor(options.redactionKey);
  const limits = { maxBytes: checkedLimit(options.recordLimit), onFull: options.onRecordingFull };
  const writer = record === undefined ? undefined : new RecordingWriter(record, variant, redactor, limits);
  const upstream = new Upstream(target);
  const findings = new DriftFindings();
  const checks = new ContractChecks(variant);
  /** Each exchange under way, until it is journaled, checked and written. */
  const underWay = new Set<Promise<void>>();
  let service: TrafficService | undefined;
  const served = await serveHttp({ port, host: '127.0.0.1', hosts: new HostAllowlist('127.0.0.1') }, (baseUrl) => {
    const problem = new OwnServer(baseUrl, localHosts('127.0.0.1')).problemWith(target);
    if (problem !== undefined) throw new InvalidArgumentError(`The target ${target} ${problem}.`);
    service = new TrafficService('proxy', variant, baseUrl, target, redactor, findings);
    return proxyFace(service, (req, res, path, search) => {
      const at = Date.now();
      const work = new Promise<void>((resolve) =>
        upstream.forward(req, res, { path, search, at }, (exchange) => {
          if (exchange instanceof Error) failed(res, { method: req.method ?? 'GET', path, search, at }, exchange);
          void (exchange instanceof Error ? Promise.resolve() : settle(exchange)).then(resolve, resolve);
        }),
      );
      underWay.add(work);
      void work.then(() => underWay.delete(work));
    });
  });
  /** The service could not be reached: 502 in the variant's envelope (when the answer had not begun), journaled. */
  const failed = (
    res: ServerResponse,
    asked: { method: string; path: string; search: string; at: number },
    error: Error,
  ) => {
    const reason = (error as NodeJS.ErrnoException).code ?? error.message;
    const answer = errorAnswer(variant, 502, 'PROXY_ERROR', `The proxy could not reach ${target}: ${reason}.`, {});
    if (res.headersSent || res.destroyed) res.destroy();
    else res.writeHead(answer.status, answer.headers).end(answer.body);
    void service!.record({
      ...asked,
      durationMs: Date.now() - asked.at,
      requestHeaders: {},
      requestBody: undefined,
      status: answer.status,
      responseHeaders: answer.headers,
      responseText: answer.body,
    });
  };
  /** What follows an exchange passed on: the journal, the checks, the recording. */
  const settle = async (exchange: Exchange) => {
    // Checked before it is journaled: the stream then tells the dashboard, which reads the findings.
    for (const finding of findings.add(checks.check(exchange), new Date(exchange.at))) onFinding?.(finding);
    await service!.record({ ...exchange, responseText: textOf(exchange.responseBody) });
    await writer?.record(exchange);
  };
  const settled = async () => {
    await Promise.all(underWay);
    await writer?.flushed();
  };
  const server = trafficServer(served, service!, () => upstream.close());
  return {
    ...server,
    target,
    drift: () => findings.report(),
    get unrecorded() {
      return writer?.skipped ?? 0;
    },
    settled,
    // Stopped, it writes what it answered first: no exchange an app got an answer to is lost.
    close: async () => {
      await server.close();
      await settled();
    },
  };
}

/** The proxy as the HTTP face serves it: below the base URL forwarded, the rest answered here. */
function proxyFace(
  service: TrafficService,
  forward: (req: IncomingMessage, res: ServerResponse, path: string, search: string) => void,
): HttpService {
  const basePath = new URL(service.baseUrl).pathname;
  return {
    variant: service.variant,
    baseUrl: service.baseUrl,
    answer: (request) => outsideBase(service, request),
    control: trafficControl(service),
    takeOver: (request, req, res) => {
      const { pathname, search } = new URL(request.url);
      if (request.method === 'CONNECT' || !(pathname === basePath || pathname.startsWith(`${basePath}/`))) return false;
      forward(req, res, pathname.slice(basePath.length), search);
      return true;
    },
  };
}

/** The target, checked: an absolute http(s) URL ending with `/api/v1`. */
function checkedTarget(target: unknown): string {
  let url: URL | undefined;
  try {
    url = typeof target === 'string' ? new URL(target) : undefined;
  } catch {
    url = undefined;
  }
  // Refused without a word of it: a password must not reach the banner, the health answer or an error.
  if (url !== undefined && (url.username !== '' || url.password !== ''))
    throw new InvalidArgumentError(
      'The target must not carry a user name or password: the proxy passes the API key of each request on, and would show the URL.',
    );
  if (
    url === undefined ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    !/\/api\/v1\/?$/.test(url.pathname) ||
    url.search !== '' ||
    url.hash !== ''
  )
    throw new InvalidArgumentError(
      `The target must be the service's base URL: an absolute http(s) URL ending with /api/v1 (https://api.example.com/api/v1), got ${JSON.stringify(String(target))}.`,
    );
  return url.href.replace(/\/+$/, '');
}

/** The `recordLimit` option: a number of bytes of at least 1 MiB, else the default. */
function checkedLimit(limit: unknown): number {
  if (limit === undefined) return DEFAULT_RECORD_LIMIT;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1_048_576)
    throw new InvalidArgumentError(
      `The \`recordLimit\` option must be a number of bytes of at least 1 MiB (1048576), got ${showValue(limit)}.`,
    );
  return limit;
}

function textOf(bytes: Uint8Array | undefined): string | undefined {
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}
