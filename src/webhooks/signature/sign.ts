// signWebhook: the signature header on node:crypto.
import { createHmac } from 'node:crypto';
import type { WebhookPayload } from './inputs.js';
import { checkedSignInputs, type SignWebhookOptions } from './sign-options.js';

/**
 * The `X-Service-Signature` value for `payload` under `secret`, e.g. to test a receiver. Needs
 * node:crypto (Node, Bun, Deno): on Workers and in browsers it throws, naming `signWebhookAsync`.
 */
export function signWebhook(payload: WebhookPayload, secret: string, options: SignWebhookOptions = {}): string {
  const { body, key, prefix } = checkedSignInputs(payload, secret, options, 'signWebhook');
  const hex = createHmac('sha256', key).update(body).digest('hex');
  return prefix ? `sha256=${hex}` : hex;
}
