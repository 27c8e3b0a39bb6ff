import { inspect } from 'node:util';
import { BizMsgError } from '../../src/index.js';
import type { ProxiedRequest } from './fault-proxy.js';

/** How a client call ended, as the caller saw it. */
export type Outcome =
  | { readonly kind: 'resolved'; readonly value: unknown; readonly ms: number }
  | { readonly kind: 'rejected'; readonly error: unknown; readonly ms: number }
  | { readonly kind: 'hung'; readonly ms: number };

/** A broken promise of the client (see `violationsOf`). */
export type Violation = 'duplicate' | 'lost' | 'unflagged' | 'hung' | 'untyped' | 'leaked' | 'misread';

/** Everything known about one operation after the run. */
export interface Case {
  readonly method: string;
  readonly outcome: Outcome;
  /** The proxy's record of each attempt, in order. */
  readonly attempts: readonly ProxiedRequest[];
  /** How many times the mock's state holds the effect; undefined for reads. */
  readonly copies: number | undefined;
  /** For a resolved read: what is wrong with its value. */
  readonly misread: string | undefined;
}

/**
 * The client's promises that `c` breaks:
 * - duplicate: the effect is stored more than once;
 * - lost: the call resolved but its effect is not stored;
 * - unflagged: a state-changing call failed after an attempt that the mock applied, or that
 *   reached the mock without its answer reaching the client, and the error does not say
 *   (`mayHaveBeenProcessed: true` and a message saying it "may have" been processed);
 * - hung: it did not settle before its deadline;
 * - untyped: it rejected with something that is not a `BizMsgError`;
 * - leaked: the API key appears in the error's message, `JSON.stringify` or `util.inspect`;
 * - misread: a read resolved with something else than asked for.
 */
export function violationsOf(c: Case, apiKey: string): Violation[] {
  const found: Violation[] = [];
  if (c.copies !== undefined && c.copies > 1) found.push('duplicate');
  if (c.outcome.kind === 'hung') return [...found, 'hung'];
  if (c.outcome.kind === 'resolved') {
    if (c.copies === 0) found.push('lost');
    if (c.misread !== undefined) found.push('misread');
    return found;
  }
  const { error } = c.outcome;
  if (!BizMsgError.is(error)) found.push('untyped');
  if (c.method !== 'GET' && mayHaveBeenApplied(c) && !saysMayHaveBeenProcessed(error)) found.push('unflagged');
  if (leaksKey(error, apiKey)) found.push('leaked');
  return found;
}

/** True when some attempt may have changed the mock's state, as far as anyone can know. */
function mayHaveBeenApplied(c: Case): boolean {
  return (c.copies ?? 0) > 0 || c.attempts.some((attempt) => attempt.mockSaw && !attempt.delivered);
}

function saysMayHaveBeenProcessed(error: unknown): boolean {
  const { mayHaveBeenProcessed, message } = (error ?? {}) as { mayHaveBeenProcessed?: unknown; message?: unknown };
  return mayHaveBeenProcessed === true && typeof message === 'string' && /may have/i.test(message);
}

/** True when `apiKey` shows in anything a user might log of `error`. */
export function leaksKey(error: unknown, apiKey: string): boolean {
  return renderings(error).some((text) => text.includes(apiKey));
}

function renderings(error: unknown): string[] {
  const texts = [inspect(error, { depth: 10 })];
  try {
    texts.push(String(JSON.stringify(error)));
  } catch (failure) {
    texts.push(`JSON.stringify threw: ${String(failure)}`);
  }
  if (error instanceof Error) texts.push(error.message, String(error.stack));
  return texts;
}

/** One line describing a case, for failure messages: the method, each attempt's fault and the outcome. */
export function describeCase(label: string, c: Case): string {
  const attempts = c.attempts.map(
    (a) =>
      `${a.fault}${a.mockStatus === undefined ? '' : `->mock ${a.mockStatus}`}${a.delivered ? '' : ' (answer not delivered)'}`,
  );
  return `${label} ${c.method} ${c.attempts[0]?.path ?? '(no request)'} attempts=[${attempts.join(', ')}] stored=${c.copies ?? '-'} => ${describeOutcome(c.outcome)}`;
}

function describeOutcome(outcome: Outcome): string {
  if (outcome.kind === 'hung') return `hung after ${outcome.ms} ms`;
  if (outcome.kind === 'resolved') return `resolved in ${outcome.ms} ms`;
  const error = outcome.error as {
    name?: unknown;
    message?: unknown;
    mayHaveBeenProcessed?: unknown;
    status?: unknown;
  };
  return `rejected in ${outcome.ms} ms with ${String(error?.name)}(status=${String(error?.status)}, mayHaveBeenProcessed=${String(error?.mayHaveBeenProcessed)}): ${String(error?.message)}`;
}

/** Calls `call` with a signal that is aborted at `deadlineMs`; a call still pending then is `hung`. */
export async function runWithDeadline(
  call: (signal: AbortSignal) => Promise<unknown>,
  deadlineMs: number,
): Promise<Outcome> {
  const controller = new AbortController();
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), deadlineMs);
  });
  const settled = call(controller.signal).then(
    (value): Outcome => ({ kind: 'resolved', value, ms: Date.now() - started }),
    (error: unknown): Outcome => ({ kind: 'rejected', error, ms: Date.now() - started }),
  );
  const result = await Promise.race([settled, deadline]);
  clearTimeout(timer);
  if (result !== 'hung') return result;
  // Cleans up the stuck call; how it ends now is the harness's doing, not the client's.
  controller.abort(new Error('chaos deadline'));
  return { kind: 'hung', ms: Date.now() - started };
}
