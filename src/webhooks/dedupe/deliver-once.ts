// Handling a delivery once across its copies, through a DedupeStore.
import type { WebhookEvent } from '../../schemas/webhook-event.js';
import { showValue } from '../../shared/describe.js';
import type { Logger } from '../../shared/logger.js';
import { withTimeout } from '../../shared/timers.js';
import type { WebhookAnswer } from '../receivers/answer.js';
import type { DedupeClaim, DedupeStore } from './store.js';

/** Longest one dedupe store call may take; after it the delivery is handled as if there were no store. */
const STORE_TIMEOUT_MS = 2000;
/** What a copy that arrives while another is being handled is told to wait (s); the service keeps its own schedule. */
const IN_PROGRESS_RETRY_AFTER_S = 60;
const CLAIMS: readonly DedupeClaim[] = ['claimed', 'in-progress', 'done'];

/** Stores that are failing: each outage is warned about once. */
const failing = new WeakSet<DedupeStore>();

/**
 * Runs `handle` for the first copy of a delivery only. The copy claims its key first; a copy
 * that finds the key claimed gets 503 so that the service delivers it again later (a 2xx could
 * lose the event if the first copy then fails), one that finds it done gets 200 unhandled.
 * A failed handler releases the claim. A failing store does not stop deliveries: they are
 * handled as if there were no store (at least once), with one warning per outage.
 */
export async function deliverOnce(
  store: DedupeStore,
  key: string,
  event: WebhookEvent,
  handle: () => Promise<WebhookAnswer>,
  logger: Logger,
): Promise<WebhookAnswer> {
  const token = crypto.randomUUID();
  let claim: DedupeClaim;
  try {
    claim = checkClaim(await bounded(() => store.claim(key, token)));
    failing.delete(store);
  } catch (error) {
    warnOnce(store, error, logger);
    return handle();
  }
  if (claim === 'done') return { status: 200, body: { received: true, event: event.event, duplicate: true } };
  if (claim === 'in-progress') {
    return {
      status: 503,
      headers: { 'retry-after': String(IN_PROGRESS_RETRY_AFTER_S) },
      body: {
        error: 'in_progress',
        message: `Another copy of this ${event.event} delivery is being handled; deliver it again later.`,
      },
    };
  }
  const answer = await handle();
  const settle = () => (answer.status === 200 ? store.complete(key, token) : store.release(key, token));
  await bounded(settle).catch((error: unknown) => warnOnce(store, error, logger));
  return answer;
}

function checkClaim(claim: unknown): DedupeClaim {
  if (CLAIMS.includes(claim as DedupeClaim)) return claim as DedupeClaim;
  throw new TypeError(`claim() answered ${showValue(claim)}, not 'claimed', 'in-progress' or 'done'`);
}

function warnOnce(store: DedupeStore, error: unknown, logger: Logger): void {
  if (failing.has(store)) return;
  failing.add(store);
  const reason = error instanceof Error ? error.message : String(error);
  logger.warn(
    `bizmsg: the webhook dedupe store failed (${reason}); deliveries are handled without de-duplication until it answers again.`,
  );
}

/** The store call's answer, or a rejection if it throws or takes too long. */
function bounded<T>(call: () => Promise<T>): Promise<T> {
  return withTimeout(Promise.resolve().then(call), STORE_TIMEOUT_MS, `no answer within ${STORE_TIMEOUT_MS} ms`);
}
