// A drift report (what the service sent that differs from what bizmsg expects), and where it goes:
// the user's `onDrift`, else one log line per operation and path.
import { withArticle } from '../shared/describe.js';
import { isEmptyDrift, type ShapeDrift } from './drift.js';

/**
 * How one answer or event of the service differs from what bizmsg expects: paths and JSON type
 * names, never a value (no number, no text, no key reaches a report).
 *
 * @example
 * ```text
 * { source: 'webhook', operation: 'message.read', missing: ['data.to'], unexpected: ['data.recipient_id'],
 *   mismatched: [{ path: 'data.read_at', expected: 'string', received: 'number' }] }
 * ```
 */
export interface DriftReport extends ShapeDrift {
  /** An answer to a client's call, or a webhook delivery. */
  readonly source: 'response' | 'webhook';
  /** The call's method and the spec's path (`'GET /contacts/{id}'`), or the event kind (`'message.read'`). */
  readonly operation: string;
}

/** Called with each drift report: the option `onDrift` of the clients, the receivers and `parseWebhook`. */
export type DriftHandler = (report: DriftReport) => void;

/**
 * Where the lines about drift go: the level and the line. A warning means the user lost something:
 * a value left out or converted (`mismatched`) is `warn`; a guessed field that is simply absent
 * (`missing`) and a field bizmsg does not know (`unexpected`) are `info`.
 */
export type DriftLog = (level: 'warn' | 'info', message: string) => void;

/** How many (operation, path) pairs a log remembers: past them, new ones are not logged. */
const REMEMBERED = 1000;

/**
 * A handler that logs each (operation, path) once through `log`, the first time it is seen;
 * `left` says what became of a field of another type (`'left out of the result'`).
 */
export function logDriftOnce(log: DriftLog, left: string): DriftHandler {
  const seen = new Set<string>();
  const once = (operation: string, path: string) => {
    const key = `${operation} ${path}`;
    if (seen.has(key) || seen.size >= REMEMBERED) return false;
    seen.add(key);
    return true;
  };
  const differs = (operation: string, path: string) =>
    `bizmsg: the service differs from what bizmsg expects in ${operation}: ${path === '' ? 'the body' : path}`;
  return ({ operation, missing, unexpected, mismatched }) => {
    for (const path of missing)
      if (once(operation, path)) log('info', `${differs(operation, path)} is missing; read on without it.`);
    for (const { path, expected, received } of mismatched)
      if (once(operation, path))
        log('warn', `${differs(operation, path)} is ${withArticle(received)}, not ${withArticle(expected)}; ${left}.`);
    for (const path of unexpected)
      if (once(operation, path)) log('info', `${differs(operation, path)} is a field bizmsg does not know; kept.`);
  };
}

/**
 * Hands `report` to `handler` when there is anything in it. A handler that throws (or rejects)
 * does not fail what the service did: the error goes to `failed`.
 */
export function sendDrift(report: DriftReport, handler: DriftHandler, failed: (error: unknown) => void): void {
  if (isEmptyDrift(report)) return;
  try {
    const result = handler(report) as unknown;
    if (result instanceof Promise) result.catch(failed);
  } catch (error) {
    failed(error);
  }
}
