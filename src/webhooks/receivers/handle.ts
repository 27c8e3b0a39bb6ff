// What both receivers share: their options, and the handling of one delivery's raw bytes
// (verify, parse, de-duplicate, dispatch), answered as a WebhookAnswer.
import { logDriftOnce, sendDrift, type DriftHandler, type DriftReport } from '../../contract/drift-report.js';
import { EVENT_SHAPES } from '../../contract/event-shapes.js';
import type { WebhookEventKind } from '../../schemas/event-kinds.js';
import type { WebhookEvent, WebhookEventOf } from '../../schemas/webhook-event.js';
import { showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { isRecord } from '../../shared/guards.js';
import { checkLogger, type Logger } from '../../shared/logger.js';
import { sha256Hex } from '../../shared/sha256.js';
import { withTimeout } from '../../shared/timers.js';
import { deliverOnce } from '../dedupe/deliver-once.js';
import { defaultMemoryDedupeStore } from '../dedupe/memory-store.js';
import { isDedupeStore, type DedupeStore } from '../dedupe/store.js';
import { WebhookVerificationError } from '../errors.js';
import { assertSigned, isKnownKind, readEvent, RECEIVER_MAX_AGE, type AgeCheck } from '../events/parse-event.js';
import { checkCallback, checkMaxAgeSeconds } from '../events/parse-options.js';
import { secretList, type WebhookSecret } from '../signature/inputs.js';
import { verifyWebhookAsync } from '../signature/verify-async.js';
import { isMessageStatusEvent } from '../status/message-event.js';
import type { StatusTracker } from '../status/tracker.js';
import type { WebhookAnswer } from './answer.js';

/** Handlers per event kind, each receiving its typed event. */
export type WebhookHandlers = {
  [K in WebhookEventKind]?: ((event: WebhookEventOf<K>) => unknown) | undefined;
};

/** Options of `createWebhookHandler` and `webhookMiddleware`. */
export interface WebhookHandlerOptions {
  /** The endpoint's signing secret, or several during a rotation. */
  secret: WebhookSecret;
  /**
   * Refuse (401 `stale`) a delivery whose `timestamp` is further than this from now, either way
   * (as `parseWebhook` does): a replay of a recorded delivery. By default a delivery older than
   * 27 h is refused (the service retries for about 26.6 h, so only a replay is that old), and one
   * ahead of this clock is not; `false` turns the check off. To test a receiver with recorded
   * deliveries, sign them again with a fresh timestamp (`signWebhook`).
   * @default 97200 seconds (27 h) back from now
   */
  maxAgeSeconds?: number | false | undefined;
  /** Called for events of the named kinds; a kind bizmsg does not know (a misspelt one) is refused when the receiver is made. */
  on?: WebhookHandlers | undefined;
  /** Called for every verified event of a kind bizmsg knows, after its `on` handler (an unknown kind is acknowledged, logged once, and given to no handler). */
  onEvent?: ((event: WebhookEvent) => unknown) | undefined;
  /**
   * Called when a handler throws (the delivery is answered 500 so the service retries).
   * @default the `logger`'s error
   */
  onError?: ((error: unknown, event: WebhookEvent) => unknown) | undefined;
  /**
   * Largest body accepted, in bytes; larger ones get 413.
   * @default 1048576 (1 MiB)
   */
  maxBodyBytes?: number | undefined;
  /**
   * Where the receiver records the deliveries it handled, so that it handles each once: a copy of
   * a delivery already handled gets 200 without calling the handlers, a copy arriving while another
   * is being handled gets 503 with `Retry-After` so that the service delivers it again, a failed
   * handler releases its claim. By default a `memoryDedupeStore()` of this receiver (this process
   * only, the newest 100,000 deliveries for 48 h); several instances share `redisDedupeStore(redis)`
   * from `bizmsg/redis`; `false` handles every copy.
   * @default memoryDedupeStore()
   */
  dedupe?: DedupeStore | false | undefined;
  /**
   * A status tracker (`createStatusTracker`) to apply every verified message event to, before the
   * `on` handlers run (they see the record updated). If the tracker's store fails, the delivery
   * is answered 500 (the service retries; applying again is harmless); a message event the
   * tracker cannot follow (no message id) changes nothing and is acknowledged.
   */
  tracker?: StatusTracker | undefined;
  /** The de-duplication key of an event (default: the SHA-256 of the raw body). */
  dedupeKey?: ((event: WebhookEvent) => string) | undefined;
  /**
   * Called with how a verified event differs from what bizmsg expects (a field missing, unknown or
   * of another type; paths and JSON type names, never a value), when it does. The delivery is
   * handled and acknowledged all the same: the handlers get the data as sent.
   * @default each (kind, path) logged once through `logger` (missing and mismatched at warn, unknown at info)
   */
  onDrift?: DriftHandler | undefined;
  /**
   * Where the receiver's own lines go: a handler that failed (without `onError`), a request whose
   * body your code read first, a dedupe store that failed, how the service differs (without `onDrift`).
   * @default console
   */
  logger?: Logger | undefined;
}

/** A receiver's options once checked: what each delivery is handled with. */
export interface Receiver {
  readonly options: WebhookHandlerOptions;
  readonly maxBodyBytes: number;
  readonly logger: Logger;
  /** The store of the deliveries handled; undefined with `dedupe: false`. */
  readonly dedupe: DedupeStore | undefined;
  /** How old a delivery may be; undefined with `maxAgeSeconds: false`. */
  readonly age: AgeCheck | undefined;
  /** Where each delivery's drift goes: `onDrift`, else the logger once per (kind, path). */
  readonly drift: (report: DriftReport) => void;
  /** The event kinds bizmsg does not know that were logged (each once; at most UNKNOWN_KINDS_LOGGED). */
  readonly unknownKinds: Set<string>;
}

/** How many unknown event kinds a receiver logs: past them, a new one is acknowledged without a line. */
const UNKNOWN_KINDS_LOGGED = 100;

const DEFAULT_MAX_BODY_BYTES = 1_048_576; // 1 MiB
/** Longest the tracker may take to apply an event; after it the delivery is answered 500 and comes again. */
const TRACKER_TIMEOUT_MS = 5000;

/** Checks handler options once, when the handler is created; a bad one is an `InvalidArgumentError`. */
export function checkHandlerOptions(options: WebhookHandlerOptions, caller: string): Receiver {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError(`${caller} needs options: { secret, on?, onEvent? }.`);
  const { on, onEvent, onError, onDrift, dedupe, dedupeKey, tracker, maxBodyBytes = DEFAULT_MAX_BODY_BYTES } = options;
  secretList(options.secret, caller);
  checkMaxAgeSeconds(options.maxAgeSeconds, caller, true);
  for (const [name, value] of Object.entries({ onDrift, onEvent, onError, dedupeKey }))
    checkCallback(name, value, caller);
  if (dedupe !== undefined && dedupe !== false && !isDedupeStore(dedupe)) {
    throw new InvalidArgumentError(
      `${caller}: dedupe must be a store with claim, complete and release (e.g. memoryDedupeStore()), or false.`,
    );
  }
  if (tracker !== undefined && typeof (tracker as Partial<StatusTracker> | null)?.apply !== 'function')
    throw new InvalidArgumentError(`${caller}: tracker must be a status tracker, e.g. createStatusTracker().`);
  if (dedupeKey !== undefined && dedupe === false)
    throw new InvalidArgumentError(`${caller}: dedupeKey needs de-duplication, which dedupe: false turns off.`);
  checkOn(on, caller);
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes <= 0)
    throw new InvalidArgumentError(`${caller}: maxBodyBytes must be a positive integer.`);
  const logger = checkLogger(options.logger, `${caller}: \`logger\``);
  const handler = onDrift ?? logDriftOnce((level, message) => logger[level](message), 'given to the handlers as sent');
  return {
    options,
    maxBodyBytes,
    logger,
    dedupe: dedupe === false ? undefined : (dedupe ?? defaultMemoryDedupeStore()),
    age: ageCheckOf(options.maxAgeSeconds),
    drift: (report) => sendDrift(report, handler, (error) => logger.error('bizmsg: onDrift threw', error)),
    unknownKinds: new Set(),
  };
}

/** `maxAgeSeconds` as a check: either way within it (as parseWebhook), else only not older than 27 h; none with false. */
function ageCheckOf(maxAgeSeconds: number | false | undefined): AgeCheck | undefined {
  if (maxAgeSeconds === false) return undefined;
  return maxAgeSeconds === undefined ? RECEIVER_MAX_AGE : { seconds: maxAgeSeconds };
}

/** The answer to a body over the size cap. */
export function tooLarge(maxBodyBytes: number): WebhookAnswer {
  return {
    status: 413,
    body: { error: 'payload_too_large', message: `The body is larger than ${maxBodyBytes} bytes.` },
  };
}

/**
 * Verifies, reads and dispatches one delivery. Refused only for its signature (401), its age (401)
 * or a body that is no event (400); whatever its data holds it is handled (its drift reported), and
 * an unknown event kind is acknowledged (200), so that a service that differs from what bizmsg
 * expects never gets the endpoint disabled. A handler that throws gives 500 so that the service retries.
 */
export async function handleDelivery(body: Uint8Array, signature: unknown, receiver: Receiver): Promise<WebhookAnswer> {
  const { options, dedupe } = receiver;
  let event: WebhookEvent;
  try {
    assertSigned(signature, await verifyWebhookAsync(body, signature, options.secret));
    event = readEvent(body, { age: receiver.age, drift: receiver.drift });
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return rejected(error);
  }
  if (!isKnownKind(event.event)) {
    warnUnknownKind(receiver, event.event);
    return { status: 200, body: { received: true, ignored: `Unknown event kind ${showValue(event.event)}.` } };
  }
  if (dedupe === undefined) return runHandlers(event, receiver);
  let key: string;
  try {
    key = await dedupeKeyOf(body, event, options.dedupeKey);
  } catch (error) {
    await reportHandlerError(receiver, error, event);
    return handlerFailed(event);
  }
  return deliverOnce(dedupe, key, event, () => runHandlers(event, receiver), receiver.logger);
}

/**
 * Says once per kind that a verified event of a kind bizmsg does not know was acknowledged and
 * given to no handler: the service sends something new, which the user may want to handle.
 */
function warnUnknownKind({ logger, unknownKinds }: Receiver, kind: string): void {
  if (unknownKinds.has(kind) || unknownKinds.size >= UNKNOWN_KINDS_LOGGED) return;
  unknownKinds.add(kind);
  logger.warn(
    `bizmsg: acknowledged a verified event of a kind bizmsg does not know (${showValue(kind)}); no handler ran.`,
  );
}

/** The delivery's de-duplication key: the user's, else the SHA-256 of the raw body. */
async function dedupeKeyOf(
  body: Uint8Array,
  event: WebhookEvent,
  dedupeKey: WebhookHandlerOptions['dedupeKey'],
): Promise<string> {
  if (dedupeKey === undefined) return sha256Hex(body);
  const key = dedupeKey(event);
  if (typeof key !== 'string' || key === '')
    throw new InvalidArgumentError(`dedupeKey returned ${showValue(key)}, not a non-empty string.`);
  return key;
}

/**
 * Applies a message event to the tracker, then calls the event's handlers: 200 when they
 * succeed, 500 (reported to onError) when one throws or the tracker's store fails.
 */
async function runHandlers(event: WebhookEvent, receiver: Receiver): Promise<WebhookAnswer> {
  const { options } = receiver;
  const untracked = await applyToTracker(event, receiver);
  if (untracked !== undefined) return untracked;
  try {
    await (options.on?.[event.event] as ((e: WebhookEvent) => unknown) | undefined)?.(event);
    await options.onEvent?.(event);
  } catch (error) {
    // The error goes to the user's onError, not into the answer: the service only learns to retry.
    await reportHandlerError(receiver, error, event);
    return handlerFailed(event);
  }
  return { status: 200, body: { received: true, event: event.event } };
}

/** Applies a message event to the receiver's tracker; the answer to give instead of running the handlers when that fails. */
async function applyToTracker(event: WebhookEvent, receiver: Receiver): Promise<WebhookAnswer | undefined> {
  const { tracker } = receiver.options;
  if (tracker === undefined || !isMessageStatusEvent(event)) return undefined;
  try {
    await withTimeout(
      tracker.apply(event),
      TRACKER_TIMEOUT_MS,
      `the status tracker did not answer within ${TRACKER_TIMEOUT_MS} ms`,
    );
    return undefined;
  } catch (error) {
    await reportHandlerError(receiver, error, event);
    return handlerFailed(event);
  }
}

/**
 * The `on` option: handlers by event kind. A kind bizmsg does not know is refused: the receivers
 * give such an event to no handler, so a misspelt kind would acknowledge its events unhandled.
 */
function checkOn(on: unknown, caller: string): void {
  if (on === undefined) return;
  if (!isRecord(on))
    throw new InvalidArgumentError(
      `${caller}: on must be an object of handlers by event kind, e.g. { 'message.delivered': (event) => {} }, got ${showValue(on)}.`,
    );
  for (const [kind, handler] of Object.entries(on)) {
    if (!isKnownKind(kind))
      throw new InvalidArgumentError(
        `${caller}: on[${showValue(kind)}] names no event kind, so it would never run; the kinds are ${Object.keys(EVENT_SHAPES).join(', ')}.`,
      );
    // A kind given as undefined has no handler, as a kind left out.
    checkCallback(`on["${kind}"]`, handler, caller);
  }
}

/** A delivery refused: 400 for a body that is no event, 401 for a signature or an age the receiver refuses. */
function rejected(error: WebhookVerificationError): WebhookAnswer {
  const status = error.reason === 'malformed_payload' ? 400 : 401;
  return { status, body: { error: error.reason, message: error.message } };
}

function handlerFailed(event: WebhookEvent): WebhookAnswer {
  return { status: 500, body: { error: 'handler_failed', message: `The handler for ${event.event} failed.` } };
}

async function reportHandlerError(receiver: Receiver, error: unknown, event: WebhookEvent): Promise<void> {
  const { options } = receiver;
  if (options.onError === undefined) {
    receiver.logger.error(
      `bizmsg: the webhook handler for ${event.event} failed; answering 500 so that the service retries.`,
      error,
    );
    return;
  }
  try {
    await options.onError(error, event);
  } catch {
    // An onError that throws must not turn the 500 into a crash of the server.
  }
}
