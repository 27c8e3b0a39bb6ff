// The Web build's tracing.ts (tsup.config.ts swaps it in for the workerd, worker and browser
// conditions): no spans. A Worker or a page runs one bundle, so the import() of
// `@opentelemetry/api` that tracing.ts makes with a specifier bundlers leave alone can never
// resolve there; the lookup and the span code would be bytes every edge bundle carries for nothing.
import type { CallSpan } from './tracing.js';

/** Resolved at once: the Web build looks for no tracer. */
export function findTracing(): Promise<void> {
  return Promise.resolve();
}

/** Always known: there is nothing to look for. */
export function tracingKnown(): boolean {
  return true;
}

/** No span, ever: the call runs untraced, as it does on Node without `@opentelemetry/api`. */
export function startCallSpan(_method: string, _route: string, _urlOf: () => string): CallSpan | undefined {
  return undefined;
}
