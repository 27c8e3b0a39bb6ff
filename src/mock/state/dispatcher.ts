// Webhook deliveries: signed POSTs to the registered endpoints, retried on the schedule, endpoints disabled.
import { SIGNATURE_HEADER, WEBHOOK_RETRY_DELAYS_MS } from '../../contract/webhooks.js';
import type { WebhookEventKind } from '../../schemas/webhook-endpoint.js';
import { signWebhookAsync } from '../../webhooks/signature/sign-async.js';
import type { VirtualClock } from './clock.js';
import { ACCOUNT, type DeliveryAttempt, type MockStore, type StoredWebhookEndpoint } from './store.js';

/**
 * POSTs signed events to the registered endpoints through the global fetch (so they reach
 * real servers and msw handlers alike), retrying failures on the clock's schedule and
 * disabling an endpoint whose 5th retry fails.
 */
export class WebhookDispatcher {
  readonly #store: () => MockStore;
  readonly #clock: VirtualClock;
  readonly #timeoutMs: number;

  constructor(store: () => MockStore, clock: VirtualClock, timeoutMs: number) {
    this.#store = store;
    this.#clock = clock;
    this.#timeoutMs = timeoutMs;
  }

  /** Sends `{event, timestamp, data}` to every active endpoint subscribed to `kind`; `timestamp` defaults to now. */
  emit(kind: WebhookEventKind, data: Record<string, unknown>, timestamp = this.#clock.date().toISOString()): void {
    const body = JSON.stringify({ event: kind, timestamp, data });
    for (const endpoint of this.#store().webhookEndpoints) {
      if (endpoint.status === 'active' && endpoint.events.includes(kind)) {
        void this.#clock.track(this.#deliver(endpoint, kind, body, 0));
      }
    }
  }

  async #deliver(
    endpoint: StoredWebhookEndpoint,
    kind: WebhookEventKind,
    body: string,
    attempt: number,
  ): Promise<void> {
    if (endpoint.status !== 'active') return;
    const at = this.#clock.now();
    const status = await this.#post(endpoint, body);
    const ok = typeof status === 'number' && status >= 200 && status < 300;
    const record: DeliveryAttempt = {
      endpointId: endpoint.id,
      url: endpoint.url,
      event: kind,
      attempt,
      status,
      ok,
      at,
    };
    this.#store().deliveries.push(record);
    if (ok) return;
    const delay = WEBHOOK_RETRY_DELAYS_MS[attempt];
    if (delay === undefined) {
      this.#disable(endpoint, record);
      return;
    }
    this.#clock.schedule(this.#clock.now() + delay, () => this.#deliver(endpoint, kind, body, attempt + 1));
  }

  async #post(endpoint: StoredWebhookEndpoint, body: string): Promise<DeliveryAttempt['status']> {
    // Signed on Web Crypto, which every runtime the mock runs on has (node:crypto is not everywhere).
    const signature = await signWebhookAsync(body, endpoint.secret);
    const signal = AbortSignal.timeout(this.#timeoutMs);
    try {
      const response = await globalThis.fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
        body,
        signal,
      });
      await response.arrayBuffer().catch(() => undefined);
      return response.status;
    } catch {
      return signal.aborted ? 'timeout' : 'network_error';
    }
  }

  #disable(endpoint: StoredWebhookEndpoint, last: DeliveryAttempt): void {
    endpoint.status = 'disabled';
    endpoint.disabled_at = this.#clock.date().toISOString();
    this.#store().emails.push({
      to: ACCOUNT.email,
      subject: `Webhook endpoint ${endpoint.url} disabled`,
      body:
        `Delivery of a ${last.event} event to ${endpoint.url} failed ${WEBHOOK_RETRY_DELAYS_MS.length + 1} times ` +
        `(last result: ${String(last.status)}), so the endpoint was disabled. Fix it and register it again.`,
      at: this.#clock.now(),
    });
  }
}
