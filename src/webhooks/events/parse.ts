// parseWebhook: verify on node:crypto, then parse.
import type { WebhookEvent } from '../../schemas/webhook-event.js';
import type { WebhookPayload, WebhookSecret } from '../signature/inputs.js';
import { assertSigned, readEvent } from './parse-event.js';
import { checkedParseInputs, readingOf, type ParseWebhookOptions } from './parse-options.js';
import { verifyWebhook } from '../signature/verify.js';

/**
 * Verifies a delivery, then returns its event as the service sent it, typed by its kind. It throws
 * `WebhookVerificationError` (with a `reason`) only for the signature, an event older than
 * `maxAgeSeconds`, or a body that is no event (not JSON, or without a string `event` and an object
 * `data`), and an InvalidArgumentError for a bad argument. Whatever `data` holds, the event is
 * returned, and how it differs from what bizmsg expects goes to `onDrift`. An event of a kind this
 * version does not know is returned too (its `event` is none of `WEBHOOK_EVENT_KINDS`): acknowledge it.
 * Needs node:crypto (Node, Bun, Deno): on Workers and in browsers it throws, naming `parseWebhookAsync`.
 */
export function parseWebhook(
  payload: WebhookPayload,
  signature: unknown,
  secret: WebhookSecret,
  options: ParseWebhookOptions = {},
): WebhookEvent {
  const body = checkedParseInputs(payload, secret, options, 'parseWebhook');
  assertSigned(signature, verifyWebhook(body, signature, secret));
  return readEvent(body, readingOf(options));
}
