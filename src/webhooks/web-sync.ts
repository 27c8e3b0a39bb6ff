// The synchronous webhook functions of the Web build, which say to use their async twins.
import type { WebhookEvent } from '../schemas/webhook-event.js';
import type { WebhookPayload, WebhookSecret } from './signature/inputs.js';
import type { ParseWebhookOptions } from './events/parse-options.js';
import type { SignWebhookOptions } from './signature/sign-options.js';
import { BizMsgError } from '../shared/errors.js';

/**
 * The synchronous functions as the Web build of `bizmsg/webhooks` has them: they need
 * node:crypto, which Workers and browsers lack, so each says which async function to use.
 */
function needsNodeCrypto(caller: string, instead: string): BizMsgError {
  return new BizMsgError(
    `${caller} is synchronous and needs node:crypto, which this runtime does not have (it loaded the Web build of bizmsg/webhooks). ` +
      `Use \`await ${instead}(...)\` (Web Crypto) instead, or createWebhookHandler, which verifies for you.`,
  );
}

/** On this build, throws: use `verifyWebhookAsync`. */
export function verifyWebhook(_payload: WebhookPayload, _signature: unknown, _secret: WebhookSecret): boolean {
  throw needsNodeCrypto('verifyWebhook', 'verifyWebhookAsync');
}

/** On this build, throws: use `parseWebhookAsync`. */
export function parseWebhook(
  _payload: WebhookPayload,
  _signature: unknown,
  _secret: WebhookSecret,
  _options?: ParseWebhookOptions,
): WebhookEvent {
  throw needsNodeCrypto('parseWebhook', 'parseWebhookAsync');
}

/** On this build, throws: use `signWebhookAsync`. */
export function signWebhook(_payload: WebhookPayload, _secret: string, _options?: SignWebhookOptions): string {
  throw needsNodeCrypto('signWebhook', 'signWebhookAsync');
}
