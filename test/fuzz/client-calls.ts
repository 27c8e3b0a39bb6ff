import { BizMsgError, ConnectionError, InvalidArgumentError, TimeoutError } from '../../src/index.js';
import { leaksKey } from '../chaos/verdict.js';

/** How one fuzzed call went, from the call expression to the requests the server saw. */
export interface Observation {
  readonly outcome:
    | { kind: 'sync-throw'; error: unknown }
    | { kind: 'not-a-promise'; value: unknown }
    | { kind: 'resolved'; value: unknown }
    | { kind: 'rejected'; error: unknown }
    | { kind: 'hung' };
  readonly ms: number;
  /** Requests that reached the server because of this call. */
  readonly requests: number;
}

/** What the call was made with, to judge its outcome. */
export interface CallContext {
  /** The key the client was given; checked for leaks when it is long enough to mean something. */
  readonly apiKey: string;
  /** The timeout the call ran with, when it was a valid one. */
  readonly timeoutMs: number;
  /** The `signal` passed, if any: a rejection with its reason is the caller's own doing. */
  readonly signal: unknown;
  /** True when the transport itself is the fuzzed thing: network errors are then expected. */
  readonly faultyTransport?: boolean;
}

/** Requests are served by a healthy local server: anything slower than this is not the network's fault. */
const HEALTHY_LATENCY_MS = 1000;
/** Timers may fire a millisecond or two early by `Date.now()`'s reckoning. */
const EARLY_SLACK_MS = 5;

/**
 * Makes the call inside `invoke`, catching a synchronous throw separately, then waits for it
 * (up to `deadlineMs`) and for the server to settle, and counts the requests it caused.
 */
export async function observe(
  invoke: () => unknown,
  requestCount: () => number,
  settle: () => Promise<void>,
  deadlineMs: number,
): Promise<Observation> {
  const before = requestCount();
  const started = Date.now();
  let returned: unknown;
  try {
    returned = invoke();
  } catch (error) {
    return { outcome: { kind: 'sync-throw', error }, ms: Date.now() - started, requests: requestCount() - before };
  }
  if (!isThenable(returned))
    return {
      outcome: { kind: 'not-a-promise', value: returned },
      ms: Date.now() - started,
      requests: requestCount() - before,
    };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    Promise.resolve(returned).then(
      (value) => ({ kind: 'resolved' as const, value }),
      (error: unknown) => ({ kind: 'rejected' as const, error }),
    ),
    new Promise<{ kind: 'hung' }>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'hung' }), deadlineMs);
    }),
  ]);
  clearTimeout(timer);
  const ms = Date.now() - started;
  await settle();
  return { outcome, ms, requests: requestCount() - before };
}

/**
 * The broken promises of one call against a healthy local server: a synchronous throw, no
 * promise, a hang, a rejection that is not a `BizMsgError` (other than the caller's own abort
 * reason), an `InvalidArgumentError` after a request went out, a network error (no network
 * fault exists here, so it can only be a local mistake in disguise), a timeout before its time
 * or on a request the server answers at once, and the key in the error's output.
 */
export function callViolations(observation: Observation, context: CallContext): string[] {
  const { outcome } = observation;
  switch (outcome.kind) {
    case 'sync-throw':
      return [`threw synchronously: ${describe(outcome.error)}`];
    case 'not-a-promise':
      return [`returned ${typeof outcome.value}, not a promise`];
    case 'hung':
      return [`did not settle in ${observation.ms} ms`];
    case 'resolved':
      return [];
    case 'rejected':
      break;
  }
  const { error } = outcome;
  const found: string[] = [];
  const abortReason = isAborted(context.signal) ? (context.signal as AbortSignal).reason : undefined;
  if (!BizMsgError.is(error) && !(abortReason !== undefined && error === abortReason))
    found.push(`rejected with a non-BizMsgError: ${describe(error)}`);
  if (InvalidArgumentError.is(error) && observation.requests > 0)
    found.push(`InvalidArgumentError after ${observation.requests} request(s) reached the server: ${describe(error)}`);
  // A fetch that throws or hangs is a network failure as far as the client can tell.
  if (context.faultyTransport !== true) found.push(...networkViolations(error, observation.ms, context.timeoutMs));
  if (context.apiKey.length >= 12 && leaksKey(error, context.apiKey))
    found.push(`the API key shows in the error: ${describe(error)}`);
  return found;
}

/** Against a healthy local server, a timeout is only right after its time on a tiny timeout, and a network error never. */
function networkViolations(error: unknown, ms: number, timeoutMs: number): string[] {
  if (TimeoutError.is(error)) {
    if (ms + EARLY_SLACK_MS < timeoutMs)
      return [`timed out after ${ms} ms, before its timeout of ${timeoutMs} ms: ${describe(error)}`];
    if (timeoutMs >= HEALTHY_LATENCY_MS)
      return [`timed out (${timeoutMs} ms) against a server that answers at once: ${describe(error)}`];
    return [];
  }
  return ConnectionError.is(error) ? [`a local mistake reported as a network failure: ${describe(error)}`] : [];
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function isAborted(signal: unknown): boolean {
  return signal instanceof AbortSignal && signal.aborted;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return `${typeof error} ${safeString(error)}`;
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.name}: ${error.cause.message})` : '';
  return `${error.name}: ${error.message.slice(0, 300)}${cause}`;
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '(cannot be shown)';
  }
}
