// The lines bizmsg-mock prints as it works: one per request to the service, one per delivery attempt,
// and nothing a receiver sent that a terminal would act on.
import { printable } from '../../shared/printable.js';
import type { MockActivity } from '../service.js';

/**
 * The line of a request or a delivery attempt, with each of `secrets` (the control token) replaced;
 * undefined for the rest (what the dashboard shows). The mock has already redacted its API keys.
 */
export function activityLine(activity: MockActivity, secrets: readonly string[] = []): string | undefined {
  const line = lineOf(activity);
  return line === undefined
    ? undefined
    : printable(secrets.reduce((text, secret) => text.replaceAll(secret, '[REDACTED]'), line));
}

function lineOf(activity: MockActivity): string | undefined {
  if (activity.kind === 'request') {
    const { method, path, url, status, durationMs } = activity;
    const where = path ?? `${url} (outside the API's base URL)`;
    return `${clock()}  ${method} ${where} -> ${status === 0 ? 'network error (injected)' : status} (${ms(durationMs)})`;
  }
  if (activity.kind === 'delivery') {
    const { event, url, status, attempt, durationMs, nextRetryAt, redeliveryOf, error } = activity.attempt;
    const which = redeliveryOf === null ? `attempt ${attempt}` : `redelivery of #${redeliveryOf}`;
    const why = error === null ? '' : `: ${error}`;
    const next =
      nextRetryAt === null ? '' : `; attempt ${attempt + 1} at ${new Date(nextRetryAt).toISOString()} (virtual time)`;
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
