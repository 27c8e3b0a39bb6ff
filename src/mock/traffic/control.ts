// The control API of a proxy or replay: what it has of the mock's (health, the request journal, the
// activity stream) and its own drift report; every route that steers the mock's state answers 501.
import * as z from 'zod/mini';
import { controlApiDocument } from '../control/document.js';
import {
  answerControlRoutes,
  compileControlRoutes,
  Refused,
  type ControlAccess,
  type ControlAnswer,
} from '../control/handler.js';
import { CONTROL_ROUTES, type ControlRoute } from '../control/routes.js';
import { HealthOutput } from '../operations.js';
import { JournalQuery } from '../calls/schemas.js';
import { activityStream, StreamActivitySchema } from '../control/stream.js';
import type { MockRequest } from '../wire/request.js';
import { RecordedRequestSchema } from '../state/records.js';
import { DriftReportSchema } from './findings.js';
import type { TrafficService } from './service.js';

/** `GET /_bizmsg/health` of a proxy or replay: the mock's, with which it is and what it serves from. */
export const TrafficHealthOutput = /* @__PURE__ */ z.extend(HealthOutput, {
  mode: z.enum(['proxy', 'replay']),
  /** The service's base URL (a proxy). */
  target: z.optional(z.string()),
  /** The recording's folder (a replay). */
  recording: z.optional(z.string()),
});
/** What `GET /_bizmsg/health` of a proxy or replay answers. */
export type TrafficHealth = z.infer<typeof TrafficHealthOutput>;

const OWN: ReadonlyArray<ControlRoute<TrafficService>> = [
  {
    method: 'GET',
    path: '/_bizmsg/health',
    operationId: 'health',
    summary: 'Whether it runs: proxy or replay, its variant, base URL and what it serves from',
    output: TrafficHealthOutput,
    status: 200,
    run: (traffic): TrafficHealth => ({
      ok: true,
      variant: traffic.variant,
      baseUrl: traffic.baseUrl,
      now: traffic.clock.date().toISOString(),
      mode: traffic.mode,
      ...(traffic.mode === 'proxy' ? { target: traffic.source } : { recording: traffic.source }),
    }),
  },
  {
    method: 'GET',
    path: '/_bizmsg/requests',
    operationId: 'requests',
    summary: 'The request journal, as the mock keeps it',
    query: JournalQuery,
    output: z.array(RecordedRequestSchema),
    status: 200,
    run: (traffic, { query }) => traffic.requests(query as z.infer<typeof JournalQuery>),
  },
  {
    method: 'GET',
    path: '/_bizmsg/stream',
    operationId: 'stream',
    summary: 'What it does from now on, as Server-Sent Events',
    events: StreamActivitySchema,
    status: 200,
    run: (traffic) => activityStream(traffic),
  },
  {
    method: 'GET',
    path: '/_bizmsg/drift',
    operationId: 'drift',
    summary: "Where the service's traffic differed from the contract, per operation, direction, kind and path",
    output: DriftReportSchema,
    status: 200,
    run: (traffic) => {
      if (traffic.findings === undefined)
        throw new Refused(501, 'A replay has no drift report: it answers from a recording, and checks nothing.');
      return traffic.findings.report();
    },
  },
];

/** Each route of the mock that a proxy or replay has not: it steers or reads the mock's state. */
const UNSERVED = CONTROL_ROUTES.filter((route) => !OWN.some((own) => own.operationId === route.operationId)).map(
  ({ method, path, operationId, summary, status }): ControlRoute<TrafficService> => ({
    method,
    path,
    operationId,
    summary,
    status,
    run: (traffic) => {
      throw new Refused(
        501,
        `${method} ${path} steers or reads the mock's own state, which a ${traffic.mode} does not have: ` +
          `it ${traffic.mode === 'proxy' ? `passes requests on to ${traffic.source}` : 'answers from a recording'}. ` +
          'A proxy and a replay serve health, requests, stream and (a proxy) drift.',
      );
    },
  }),
);

const ROUTES = compileControlRoutes([...OWN, ...UNSERVED]);

/** The control API of `traffic`: reachable without credentials (it binds loopback only), same-origin pages and programs only. */
export function trafficControl(traffic: TrafficService): (request: MockRequest) => Promise<ControlAnswer> {
  const access: ControlAccess = { token: undefined };
  let document: string | undefined;
  const origin = new URL(traffic.baseUrl).origin;
  return (request) =>
    answerControlRoutes(
      ROUTES,
      request,
      access,
      () => (document ??= JSON.stringify(controlApiDocument({ serverUrl: origin }))),
      (route, input) => Promise.resolve().then(() => route.run(traffic, input)),
    );
}
