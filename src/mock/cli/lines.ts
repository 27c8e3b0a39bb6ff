// The lines bizmsg-mock prints as it works: one per request to the service, one per delivery attempt.
import type { MockActivity } from '../service.js';

/** The line of a request or a delivery attempt; undefined for the rest (what the dashboard shows). */
export function activityLine(activity: MockActivity): string | undefined {
  if (activity.kind === 'request') {
    const { method, path, status, durationMs } = activity;
    return `${clock()}  ${method} ${path} -> ${status === 0 ? 'network error (injected)' : status} (${ms(durationMs)})`;
  }
  if (activity.kind === 'delivery') {
    const { event, url, status, attempt, durationMs, nextRetryAt, redeliveryOf, error } = activity.attempt;
    const which = redeliveryOf === null ? `attempt ${attempt + 1}` : `redelivery of #${redeliveryOf}`;
    const why = error === null ? '' : `: ${error}`;
    const next = nextRetryAt === null ? '' : `; retry at ${new Date(nextRetryAt).toISOString()} (virtual time)`;
    return `${clock()}  webhook ${event} -> ${url} ${status}${why} (${which}, ${ms(durationMs)})${next}`;
  }
  return undefined;
}

function clock(): string {
  return new Date().toISOString().slice(11, 23);
}

function ms(durationMs: number): string {
  return `${Math.round(durationMs)} ms`;
}
