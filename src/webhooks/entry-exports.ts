// What both builds of bizmsg/webhooks export; each entry file adds its own synchronous functions and fileStatusStore.
export { verifyWebhookAsync } from './signature/verify-async.js';
export { parseWebhookAsync } from './events/parse-async.js';
export type { ParseWebhookOptions } from './events/parse-options.js';
export { signWebhookAsync } from './signature/sign-async.js';
export type { SignWebhookOptions } from './signature/sign-options.js';
export { createWebhookHandler } from './receivers/fetch-handler.js';
export { webhookMiddleware } from './receivers/node-middleware.js';
export type { WebhookRequest, WebhookResponse, WebhookMiddleware } from './receivers/node-middleware.js';
export { defineWebhookHandlers } from './receivers/define-handlers.js';
export type { WebhookHandlerOptions, WebhookHandlers } from './receivers/handle.js';
export { memoryDedupeStore } from './dedupe/memory-store.js';
export type { MemoryDedupeStoreOptions } from './dedupe/memory-store.js';
export type { DedupeStore, DedupeClaim, DedupeStoreOptions } from './dedupe/store.js';
export { WebhookVerificationError } from './errors.js';
export { BizMsgError, InvalidArgumentError } from '../shared/errors.js';
export type { Logger } from '../shared/logger.js';
export type { DriftReport } from '../contract/drift-report.js';
export type { WebhookFailureReason } from './errors.js';
export type { WebhookPayload, WebhookSecret } from './signature/inputs.js';
export { WEBHOOK_EVENT_KINDS } from '../schemas/event-kinds.js';
export type { WebhookEventKind } from '../schemas/event-kinds.js';
export type {
  WebhookEvent,
  WebhookEventOf,
  WebhookEventData,
  MessageReceivedEvent,
  MessageSentEvent,
  MessageDeliveredEvent,
  MessageReadEvent,
  MessageFailedEvent,
  ConversationCreatedEvent,
  ConversationClosedEvent,
  ContactCreatedEvent,
  ContactUpdatedEvent,
  CampaignCompletedEvent,
  MessageEventData,
  MessageReceivedData,
  MessageDeliveredData,
  MessageReadData,
  MessageFailedData,
  MessageFailure,
  ConversationEventData,
  ContactEventData,
  ContactUpdatedData,
  CampaignCompletedData,
} from '../schemas/webhook-event.js';
export { createStatusTracker } from './status/tracker.js';
export type { StatusTracker, StatusTrackerOptions, WaitForOptions, StatusSource } from './status/tracker.js';
export type { TrackableMessage } from './status/message-change.js';
export type { StatusRecord, StatusFailure, StatusGoal, TrackedStatus, StatusChange } from './status/record.js';
export { memoryStatusStore } from './status/memory-store.js';
export type { MemoryStatusStoreOptions } from './status/memory-store.js';
export type { FileStatusStoreOptions } from './status/file-store.js';
export type { StatusStore, StatusStoreOptions, StatusSummary } from './status/store.js';
export { MessageFailedError, StatusStoreBusyError, StatusTimeoutError } from './status/errors.js';
