// defineWebhookHandlers: typed `on` handlers for options written apart.
import type { WebhookHandlerOptions } from './handle.js';

/**
 * Returns `options` as given. Written in its own statement, an options object loses the types
 * `createWebhookHandler` would give its handlers; passed through this, each `on` handler's event
 * is typed by its kind: `const options = defineWebhookHandlers({ secret, on: { 'message.delivered': (e) => ... } })`.
 */
export function defineWebhookHandlers(options: WebhookHandlerOptions): WebhookHandlerOptions {
  return options;
}
