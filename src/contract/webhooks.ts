// How the service delivers events (spec section 6): the facts the webhook receivers and the mock's
// dispatcher both depend on.

/** The request header that carries a delivery's signature, as the spec writes it (documents, messages). */
export const SIGNATURE_HEADER_NAME = 'X-Service-Signature';

/** The same header in lower case, as fetch and node:http give it. */
export const SIGNATURE_HEADER = /* @__PURE__ */ SIGNATURE_HEADER_NAME.toLowerCase();

/** Delays of the retries after a failed delivery: 1 m, 5 m, 30 m, 2 h, 24 h (spec section 6). */
export const WEBHOOK_RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 86_400_000] as const;

/** How long after its first attempt a delivery may still arrive: the retry delays added up (~26.6 h). */
export const REDELIVERY_SPAN_MS = /* @__PURE__ */ WEBHOOK_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);

/** A span in hours, one decimal, as messages show it ("26.6 h"). */
export function hours(ms: number): string {
  return `${(ms / 3_600_000).toFixed(1)} h`;
}
