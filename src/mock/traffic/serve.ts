// What a proxy and a replay share as servers: their options and handle, their answer to a request
// outside the base URL, and an error answer of their own in the variant's envelope.
import type { Variant } from '../../contract/variant.js';
import type { ServedHttp } from '../http/server.js';
import type { MockAnswer, MockRequest } from '../wire/request.js';
import type { RequestFilter } from '../state/journal.js';
import type { RecordedRequest } from '../state/records.js';
import type { MockActivity } from '../service.js';
import type { TrafficService } from './service.js';

/** Options a proxy and a replay share. */
export interface TrafficOptions {
  /** Port to listen on, on 127.0.0.1 (default 0: any free port). */
  port?: number | undefined;
  /**
   * The key phone numbers are redacted under (HMAC-SHA256), at least 16 characters: a replay needs the
   * recording's to match the numbers an app sends. Default: `BIZMSG_REDACTION_KEY`, else a random
   * key for this process.
   */
  redactionKey?: string | undefined;
}

/** A running proxy or replay. */
export interface MockTrafficServer {
  /** Its base URL, ending with `/api/v1`: what the app under test calls. */
  readonly baseUrl: string;
  /** Its origin: the control API is at `{origin}/_bizmsg/`, the dashboard at `{origin}/`. */
  readonly origin: string;
  /** The variant whose contract it checks the traffic against. */
  readonly variant: Variant;
  /** The request journal, as the mock's (`connectMock(baseUrl).requests()` reads the same). */
  requests(filter?: RequestFilter): RecordedRequest[];
  /** Calls `listener` with each request answered from now on; returns the function that stops it. */
  subscribe(listener: (activity: MockActivity) => void): () => void;
  /** Stops the server. */
  close(): Promise<void>;
}

/** The handle of a proxy or replay served by `served`; `stop` runs once it closed. */
export function trafficServer(served: ServedHttp, traffic: TrafficService, stop: () => void): MockTrafficServer {
  return {
    baseUrl: served.baseUrl,
    origin: served.origin,
    variant: traffic.variant,
    requests: (filter) => traffic.requests(filter),
    subscribe: (listener) => traffic.subscribe(listener),
    close: async () => {
      await served.close();
      stop();
    },
  };
}

/** The answer to a request outside the base URL (or CONNECT): 404, or 405, in the variant's envelope. */
export function outsideBase(traffic: TrafficService, request: MockRequest): MockAnswer {
  const { pathname } = new URL(request.url);
  return request.method === 'CONNECT'
    ? errorAnswer(traffic.variant, 405, 'VALIDATION_ERROR', 'CONNECT is not a method of the service.', {})
    : errorAnswer(
        traffic.variant,
        404,
        'RESOURCE_NOT_FOUND',
        `${pathname} is outside the service's base URL ${new URL(traffic.baseUrl).pathname}.`,
        {},
      );
}

/** An error answer of a proxy or replay itself, in the variant's error envelope. */
export function errorAnswer(
  variant: Variant,
  status: number,
  code: string,
  message: string,
  details: Record<string, unknown>,
): MockAnswer {
  const error = { code, message, details };
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(variant === 1 ? { success: false, error } : { error }),
  };
}
