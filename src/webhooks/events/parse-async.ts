// parseWebhookAsync: verify on Web Crypto, then parse.
import type { WebhookEvent } from '../../schemas/webhook-event.js';
import type { WebhookPayload, WebhookSecret } from '../signature/inputs.js';
import { assertSigned, readEvent } from './parse-event.js';
import { checkedParseInputs, readingOf, type ParseWebhookOptions } from './parse-options.js';
import { verifyWebhookAsync } from '../signature/verify-async.js';

/** `parseWebhook` on Web Crypto, for every runtime (Workers and browsers included): the event as sent, its drift to `onDrift`. */
export async function parseWebhookAsync(
  payload: WebhookPayload,
  signature: unknown,
  secret: WebhookSecret,
  options: ParseWebhookOptions = {},
): Promise<WebhookEvent> {
  const body = checkedParseInputs(payload, secret, options, 'parseWebhookAsync');
  assertSigned(signature, await verifyWebhookAsync(body, signature, secret));
  return readEvent(body, readingOf(options));
}
