// Webhook deliveries: signed POSTs to the registered endpoints, each attempt recorded with what was
// sent and what came back, retried on the schedule, endpoints disabled after the last retry; a
// bounded number at once and bounded bytes held for later, so that no flood or loop of deliveries
// can take the machine down.
import pLimit from 'p-limit';
import { WEBHOOK_RETRY_DELAYS_MS } from '../../contract/webhooks.js';
import type { WebhookEventKind } from '../../schemas/event-kinds.js';
import { BodyBudget } from './body-budget.js';
import type { VirtualClock } from './clock.js';
import { postEvent, RESET_WHILE_UNDER_WAY, unsentEvent, type PostedEvent } from './post-event.js';
import { bytesOf } from './recent.js';
import type { DeliveryAttempt, StoredWebhookEndpoint } from './records.js';
import { ACCOUNT, type MockStore } from './store.js';

/** How many deliveries are POSTed at once; the others wait their turn. */
const MAX_IN_FLIGHT = 32;
/** How many deliveries may wait for their turn; past it a delivery is not sent, and counts as failed. */
const MAX_WAITING = 1000;
/** How many retries of one endpoint may wait for their time; past it the endpoint is disabled, as after its last retry. */
const MAX_RETRIES_PENDING = 1000;
const MiB = 1_048_576;
/**
 * How many bytes (as `bytesOf` counts them) the bodies of deliveries waiting their turn or in flight
 * may hold; past it a delivery is not sent, and counts as failed.
 */
const MAX_SENDING_BYTES = 32 * MiB;
/**
 * How many bytes the bodies of retries waiting for their time may hold, all endpoints together;
 * past it the endpoint holding the most is disabled, its retries dropped.
 */
const MAX_RETRY_BYTES = 32 * MiB;

/** One event on its way to one endpoint. */
interface Delivery {
  readonly endpoint: StoredWebhookEndpoint;
  readonly event: WebhookEventKind;
  /** The exact JSON text sent, which the signature covers. */
  readonly body: string;
}

/**
 * POSTs signed events to the registered endpoints through the global fetch (so they reach real
 * servers and msw handlers alike). A failure (a non-2xx, a 3xx included: redirects are not
 * followed, as GitHub and Stripe do not follow them; a network error; no answer in time) is
 * retried on the clock's schedule, and the endpoint disabled when its 5th retry fails.
 */
export class WebhookDispatcher {
  readonly #store: () => MockStore;
  readonly #clock: VirtualClock;
  readonly #timeoutMs: number;
  readonly #recorded: (attempt: DeliveryAttempt) => void;
  /**
   * The turns of the POSTs (`MAX_IN_FLIGHT` at once) and the bytes of the bodies waiting their turn
   * or in flight: new ones on each reset, so that deliveries of a store that is gone hold none of
   * the next store's.
   */
  #sending = newSending();
  /** The bytes of the bodies of the retries waiting for their time, by endpoint. */
  readonly #retryBytes = new BodyBudget<StoredWebhookEndpoint>(MAX_RETRY_BYTES);
  /**
   * One controller per attempt under way or waiting its turn, aborted when the mock closes
   * (`abortUnderWay`) or is reset (`reset`): one each, not a listener each on one signal, which
   * Node warns of past 10 (MaxListenersExceededWarning) with 32 in flight.
   */
  readonly #underWay = new Set<AbortController>();

  /** `recorded` hears every attempt once it is recorded. */
  constructor(
    store: () => MockStore,
    clock: VirtualClock,
    timeoutMs: number,
    recorded: (attempt: DeliveryAttempt) => void,
  ) {
    this.#store = store;
    this.#clock = clock;
    this.#timeoutMs = timeoutMs;
    this.#recorded = recorded;
  }

  /** Sends `{event, timestamp, data}` to every active endpoint subscribed to `kind`; `timestamp` defaults to now. */
  emit(kind: WebhookEventKind, data: Record<string, unknown>, timestamp?: string): void {
    const endpoints = this.#store().webhookEndpoints.filter((e) => e.status === 'active' && e.events.includes(kind));
    void this.deliver(kind, data, endpoints, timestamp);
  }

  /**
   * Sends one event to each of `endpoints` through the normal path (signed, retried on the
   * schedule); resolves with their first attempts once those are recorded.
   */
  deliver(
    kind: WebhookEventKind,
    data: Record<string, unknown>,
    endpoints: readonly StoredWebhookEndpoint[],
    timestamp = this.#clock.date().toISOString(),
  ): Promise<DeliveryAttempt[]> {
    const body = JSON.stringify({ event: kind, timestamp, data });
    return Promise.all(
      endpoints.map((endpoint) => this.#clock.track(this.#attempt({ endpoint, event: kind, body }, 1, null))),
    );
  }

  /**
   * Delivers the event of a recorded attempt again, now, outside the retry schedule (a failure is
   * not retried and does not disable the endpoint); resolves with the new attempt.
   */
  redeliver(original: DeliveryAttempt, endpoint: StoredWebhookEndpoint): Promise<DeliveryAttempt> {
    const delivery = { endpoint, event: original.event, body: original.request.body };
    return this.#clock.track(this.#attempt(delivery, original.attempt, original.id));
  }

  /** One attempt, made now; a scheduled retry counts as made at the time it was due (the clock ticks on meanwhile). */
  async #attempt(
    delivery: Delivery,
    attempt: number,
    redeliveryOf: number | null,
    dueAt?: number,
  ): Promise<DeliveryAttempt> {
    const { endpoint } = delivery;
    // The store of this attempt: a reset while it is under way must not find it in the new one.
    const store = this.#store();
    const at = dueAt ?? this.#clock.now();
    const under = new AbortController();
    this.#underWay.add(under);
    const closing = under.signal;
    const posted = await this.#post(delivery, closing).finally(() => this.#underWay.delete(under));
    const record: DeliveryAttempt = {
      id: store.nextId('delivery'),
      endpointId: endpoint.id,
      url: endpoint.url,
      event: delivery.event,
      attempt,
      at,
      ...posted,
      nextRetryAt: null,
      redeliveryOf,
    };
    if (store !== this.#store()) return record;
    // An endpoint removed or disabled while this attempt was under way gets no retry (disabling dropped its others),
    // nor one whose attempt the mock's closing cut short: the endpoint did not fail.
    const retried = store.webhookEndpoints.includes(endpoint) && endpoint.status === 'active' && !closing.aborted;
    if (!record.ok && redeliveryOf === null && retried) this.#afterFailure(delivery, record);
    store.deliveryLog.push(record);
    this.#recorded(record);
    return record;
  }

  /**
   * Ends every POST under way and waiting its turn, at once (the mock closes: a receiver's server must
   * not wait for a delivery its test no longer reads). Each is recorded as a network error that says
   * so, and not retried; later deliveries go out as usual.
   */
  abortUnderWay(): void {
    this.#abortAll(undefined);
  }

  /**
   * Back to no deliveries (the store was reset): every POST under way or waiting its turn ends at
   * once (recorded as a network error that says so, in the store that is gone, not retried); the
   * retries waiting are forgotten (the clock dropped them); the turns and the bounds are whole again
   * for the next store. A receiver that hung or was down before the reset must not leave its
   * deliveries holding every turn after it: the seeded endpoints' first deliveries would find no room,
   * fail, and pile up retries until the endpoint was disabled again.
   */
  reset(): void {
    this.#abortAll(RESET_WHILE_UNDER_WAY);
    this.#sending = newSending();
    this.#retryBytes.clear();
  }

  #abortAll(reason: unknown): void {
    const all = [...this.#underWay];
    this.#underWay.clear();
    for (const under of all) under.abort(reason);
  }

  /** The POST of a delivery in its turn; when too many wait already, or they hold too much, the record of one not sent. */
  #post({ endpoint, body }: Delivery, closing: AbortSignal): Promise<PostedEvent> {
    const bytes = bytesOf(body);
    const sending = this.#sending;
    const full =
      sending.turns.pendingCount >= MAX_WAITING
        ? `${MAX_IN_FLIGHT} deliveries were in flight and ${MAX_WAITING} waiting`
        : // The first always goes, whatever its size.
          sending.bytes > 0 && sending.bytes + bytes > MAX_SENDING_BYTES
          ? `the deliveries in flight and waiting held ${MAX_SENDING_BYTES / MiB} MiB of bodies`
          : undefined;
    if (full !== undefined) return unsentEvent(body, endpoint.secret, `not sent: ${full} (the mock's bound)`);
    sending.bytes += bytes;
    return sending
      .turns(() => postEvent(endpoint.url, body, endpoint.secret, this.#timeoutMs, closing))
      .finally(() => {
        sending.bytes -= bytes;
      });
  }

  /**
   * Schedules the next retry of a failed attempt, or disables the endpoint after the last (or when
   * its retries waiting reach the bound: an endpoint failing under a flood holds no more).
   */
  #afterFailure(delivery: Delivery, failed: DeliveryAttempt): void {
    // Attempt n failed: retry n (attempt n + 1) waits the schedule's n-th delay.
    const delay = WEBHOOK_RETRY_DELAYS_MS[failed.attempt - 1];
    const { endpoint } = delivery;
    if (delay === undefined) {
      this.#disable(
        endpoint,
        `Delivery of a ${failed.event} event to ${endpoint.url} failed ${WEBHOOK_RETRY_DELAYS_MS.length + 1} times ` +
          `(last result: ${String(failed.status)}), so the endpoint was disabled. Fix it and register it again.`,
      );
      return;
    }
    if (this.#clock.scheduledFor(ownerOf(endpoint)) >= MAX_RETRIES_PENDING) {
      this.#disable(
        endpoint,
        `Deliveries to ${endpoint.url} kept failing until ${MAX_RETRIES_PENDING} retries were waiting ` +
          `(last result: ${String(failed.status)}), so the endpoint was disabled and its retries dropped. Fix it and enable it again.`,
      );
      return;
    }
    const bytes = bytesOf(delivery.body);
    if (!this.#roomForRetry(endpoint, bytes)) return;
    // Due its delay after the failed attempt was made: the schedule reads the same however long attempts take.
    failed.nextRetryAt = failed.at + delay;
    this.#retryBytes.hold(endpoint, bytes);
    this.#clock.schedule(
      failed.nextRetryAt,
      () => {
        this.#retryBytes.release(endpoint, bytes);
        return this.#retry(delivery, failed.attempt + 1, failed.nextRetryAt!);
      },
      `attempt ${failed.attempt + 1} (retry ${failed.attempt}) of ${delivery.event} to ${endpoint.url}`,
      ownerOf(endpoint),
    );
  }

  /**
   * Makes room for a retry of `bytes` to `endpoint` by disabling the endpoints whose retries hold
   * the most, until it fits: false when `endpoint` itself was disabled (its retry is dropped too).
   * The endpoint that keeps failing is the one that holds the memory; another, failing once, keeps its retry.
   */
  #roomForRetry(endpoint: StoredWebhookEndpoint, bytes: number): boolean {
    for (;;) {
      const largest = this.#retryBytes.largest();
      if (this.#retryBytes.fits(bytes) || largest === undefined) return true;
      const held = this.#retryBytes.heldBy(largest);
      this.#disable(
        largest,
        `Deliveries to ${largest.url} kept failing until their retries held ${(held / MiB).toFixed(1)} MiB of the ` +
          `${MAX_RETRY_BYTES / MiB} MiB the mock keeps for retries of all endpoints, so the endpoint was disabled ` +
          'and its retries dropped. Fix it and enable it again.',
      );
      if (largest === endpoint) return false;
    }
  }

  /** Drops the pending retries to `endpoint` (it was removed): they leave the clock's list at once. */
  forget(endpoint: StoredWebhookEndpoint): void {
    this.#clock.cancel(ownerOf(endpoint));
    this.#retryBytes.releaseAll(endpoint);
  }

  /** A scheduled retry: skipped once the endpoint is disabled (or the store reset). */
  async #retry(delivery: Delivery, attempt: number, dueAt: number): Promise<void> {
    const { endpoint } = delivery;
    if (endpoint.status !== 'active') return;
    await this.#attempt(delivery, attempt, null, dueAt);
  }

  /** Disables an endpoint, dropping its retries still waiting, and e-mails the account owner `why`. */
  #disable(endpoint: StoredWebhookEndpoint, why: string): void {
    endpoint.status = 'disabled';
    endpoint.disabled_at = this.#clock.date().toISOString();
    this.forget(endpoint);
    this.#store().emailLog.push({
      to: ACCOUNT.email,
      subject: `Webhook endpoint ${endpoint.url} disabled`,
      body: why,
      at: this.#clock.now(),
    });
  }
}

/** Turns for `MAX_IN_FLIGHT` POSTs at once, and the bytes of the bodies waiting their turn or in flight. */
function newSending(): { readonly turns: ReturnType<typeof pLimit>; bytes: number } {
  return { turns: pLimit(MAX_IN_FLIGHT), bytes: 0 };
}

/** The clock's name for the tasks of one endpoint. */
function ownerOf(endpoint: StoredWebhookEndpoint): string {
  return `webhook endpoint ${endpoint.id}`;
}
