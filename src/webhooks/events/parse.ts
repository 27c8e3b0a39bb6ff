// parseWebhook: verify on node:crypto, then parse.
import type { WebhookEvent } from '../../schemas/webhook-event.js';
import type { WebhookPayload, WebhookSecret } from '../signature/inputs.js';
import { assertSigned, parseEvent } from './parse-event.js';
import { checkedParseInputs, type ParseWebhookOptions } from './parse-options.js';
import { verifyWebhook } from '../signature/verify.js';

/**
 * Verifies a delivery, then parses it into a typed event; throws `WebhookVerificationError`
 * (with a `reason`) when it is not a genuine, well-formed event, and an InvalidArgumentError for a bad argument.
 */
export function parseWebhook(
  payload: WebhookPayload,
  signature: unknown,
  secret: WebhookSecret,
  options: ParseWebhookOptions = {},
): WebhookEvent {
  const body = checkedParseInputs(payload, secret, options, 'parseWebhook');
  assertSigned(signature, verifyWebhook(body, signature, secret));
  return parseEvent(body, options);
}
