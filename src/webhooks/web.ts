// bizmsg/webhooks on Web APIs only (Workers, browsers): the synchronous functions throw, naming their async twins.
export { verifyWebhook, parseWebhook, signWebhook } from './web-sync.js';
export { verifyWebhookAsync } from './verify-async.js';
export { parseWebhookAsync } from './parse-async.js';
export type { ParseWebhookOptions } from './parse-options.js';
export { signWebhookAsync } from './sign-async.js';
export type { SignWebhookOptions } from './sign-options.js';
export { createWebhookHandler } from './fetch-handler.js';
export { webhookMiddleware } from './node-middleware.js';
export type { WebhookRequest, WebhookResponse, WebhookMiddleware } from './node-middleware.js';
export { defineWebhookHandlers } from './define-handlers.js';
export type { WebhookHandlerOptions, WebhookHandlers, WebhookAnswer } from './handle.js';
export { WebhookVerificationError } from './errors.js';
export type { WebhookFailureReason } from './errors.js';
export type { WebhookPayload, WebhookSecret } from './inputs.js';
export { WEBHOOK_EVENT_KINDS } from '../schemas/webhook-endpoint.js';
export type { WebhookEventKind } from '../schemas/webhook-endpoint.js';
export type { WebhookEvent, WebhookEventOf, MessageDeliveredEvent } from '../schemas/webhook-event.js';
