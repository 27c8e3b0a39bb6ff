// The lines bizmsg-mock prints as it works: one per request to the service, one per delivery attempt,
// and nothing a receiver sent that a terminal would act on.
import { cutShort } from '../../shared/describe.js';
import { printable } from '../../shared/printable.js';
import type { MockActivity } from '../service.js';

/**
 * The line of a request or a delivery attempt, with each of `secrets` (the control token) replaced;
 * undefined for the rest (what the dashboard shows). The mock has already redacted its API keys.
 */
export function activityLine(activity: MockActivity, secrets: readonly string[] = []): string | undefined {
  // Each part is cut after its secrets are replaced: a cut never leaves half a token in the line.
  const line = lineOf(activity, (text) => cutShort(withoutSecrets(text, secrets), SHOWN_CHARS));
  return line === undefined ? undefined : printable(line);
}

function withoutSecrets(text: string, secrets: readonly string[]): string {
  return secrets.reduce((shown, secret) => shown.replaceAll(secret, '[REDACTED]'), text);
}

/** The line of an activity, each text from outside (a path, a URL, an error) shown through `shown`. */
function lineOf(activity: MockActivity, shown: (text: string) => string): string | undefined {
  if (activity.kind === 'request') {
    const { method, path, url, status, durationMs } = activity;
    const where = path === null ? `${shown(url)} (outside the API's base URL)` : shown(path);
    return `${clock()}  ${method} ${where} -> ${status === 0 ? 'network error (injected)' : status} (${ms(durationMs)})`;
  }
  if (activity.kind === 'delivery') {
    const { event, url, status, attempt, durationMs, nextRetryAt, redeliveryOf, error } = activity.attempt;
    const which = redeliveryOf === null ? `attempt ${attempt}` : `redelivery of #${redeliveryOf}`;
    const why = error === null ? '' : `: ${error}`;
    const next =
      nextRetryAt === null ? '' : `; attempt ${attempt + 1} at ${new Date(nextRetryAt).toISOString()} (virtual time)`;
    return `${clock()}  webhook ${event} -> ${shown(url)} ${status}${shown(why)} (${which}, ${ms(durationMs)})${next}`;
  }
  return undefined;
}

/** How much of a path, URL or error a line shows: a line stays one line of a terminal or so. */
const SHOWN_CHARS = 200;

function clock(): string {
  return new Date().toISOString().slice(11, 23);
}

function ms(durationMs: number): string {
  return `${Math.round(durationMs)} ms`;
}
