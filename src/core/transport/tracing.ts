// OpenTelemetry spans of client calls, when @opentelemetry/api (an optional peer) is there.
import type * as Otel from '@opentelemetry/api';
import { maskContacts } from '../../shared/logger.js';

/**
 * `@opentelemetry/api` is an optional peer: it is looked for once per process, with a
 * specifier bundlers leave alone, so that a bundle without it builds and nothing is loaded
 * where it is missing.
 */
const OTEL_API = '@opentelemetry/api';

let lookup: Promise<void> | undefined;
let api: typeof Otel | null | undefined;

/** Starts looking for `@opentelemetry/api`; resolves once it is known whether it is there. */
export function findTracing(): Promise<void> {
  lookup ??= import(/* @vite-ignore */ /* webpackIgnore: true */ OTEL_API).then(
    (module: typeof Otel) => {
      api = module;
    },
    () => {
      api = null;
    },
  );
  return lookup;
}

/** True once `findTracing` has settled. */
export function tracingKnown(): boolean {
  return api !== undefined;
}

/** One client call's span: retries as events, the outcome as attributes and status. */
export interface CallSpan {
  /** Runs `work` with this span active, so that instrumented fetch spans nest under it. */
  run<T>(work: () => Promise<T>): Promise<T>;
  retry(attempt: number, delayMs: number, outcome: string): void;
  rateLimit(limit: number, remaining: number, reset: number): void;
  end(status: number | undefined, resendCount: number, error: Error | undefined): void;
}

/**
 * A span for one call, or undefined when no tracer provider is registered (then nothing is done);
 * `urlOf` gives the call's full URL, built only for a span.
 */
export function startCallSpan(method: string, route: string, urlOf: () => string): CallSpan | undefined {
  if (!api) return undefined;
  const tracer = (api.trace.getTracerProvider() as Otel.ProxyTracerProvider).getDelegateTracer?.('bizmsg');
  if (tracer === undefined) return undefined;
  const url = urlOf();
  const parsed = new URL(url);
  const span = tracer.startSpan(`${method} ${route}`, {
    kind: api.SpanKind.CLIENT,
    attributes: {
      'http.request.method': method,
      // Masked as log lines are: a search or an error names a customer's number, which a trace backend must not keep.
      'url.full': maskContacts(url),
      'url.template': route,
      'server.address': parsed.hostname,
      'server.port': Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)),
    },
  });
  return new OtelCallSpan(api, span);
}

class OtelCallSpan implements CallSpan {
  readonly #api: typeof Otel;
  readonly #span: Otel.Span;

  constructor(otel: typeof Otel, span: Otel.Span) {
    this.#api = otel;
    this.#span = span;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    const { context, trace } = this.#api;
    return context.with(trace.setSpan(context.active(), this.#span), work);
  }

  retry(attempt: number, delayMs: number, outcome: string): void {
    this.#span.addEvent('bizmsg.retry', {
      'bizmsg.retry.attempt': attempt,
      'bizmsg.retry.delay_ms': Math.round(delayMs),
      'bizmsg.retry.outcome': outcome,
    });
  }

  rateLimit(limit: number, remaining: number, reset: number): void {
    this.#span.setAttributes({
      'bizmsg.rate_limit.limit': limit,
      'bizmsg.rate_limit.remaining': remaining,
      'bizmsg.rate_limit.reset': reset,
    });
  }

  end(status: number | undefined, resendCount: number, error: Error | undefined): void {
    if (status !== undefined) this.#span.setAttribute('http.response.status_code', status);
    if (resendCount > 0) this.#span.setAttribute('http.request.resend_count', resendCount);
    if (error !== undefined) {
      this.#span.setAttribute('error.type', status !== undefined && status >= 400 ? String(status) : error.name);
      this.#span.setStatus({ code: this.#api.SpanStatusCode.ERROR, message: maskContacts(error.message) });
    }
    this.#span.end();
  }
}
