// bizmsg: the clients of both variants, their errors, results and types (named re-exports only).
export { Variant1Client } from './variant1/client.js';
export { Variant2Client } from './variant2/client.js';
export type { Variant1Messages } from './variant1/messages.js';
export type { Variant1Contacts } from './variant1/contacts.js';
export type { Variant1Automations } from './variant1/automations.js';
export type { Variant2Contacts } from './variant2/contacts.js';
export type { ContactUpsertResult } from './variant2/contacts-by-phone.js';
export type {
  ContactSyncRow,
  ContactSyncOptions,
  ContactSyncStatus,
  ContactSyncFailure,
  ContactSyncResult,
  ContactSyncReport,
  ContactSyncProgress,
  ContactSyncRun,
} from './contacts-sync/types.js';
export type { Run } from './runs/run.js';
export type { ProgressListener } from './runs/work.js';
export type { Variant2Messages, Variant2SendTextParams, Variant2SendTemplateParams } from './variant2/messages.js';
export type { Variant2Conversations } from './variant2/conversations.js';
export type { Variant2Campaigns } from './variant2/campaigns.js';
export type { Variant2Webhooks } from './variant2/webhooks.js';
export type { Variant1Account, Variant2Account } from './resources/account.js';
export type { RequestOptions, ListRequestOptions } from './core/call/options.js';
export type { ClientHooks, HookContext, RetryHookContext } from './core/transport/hooks.js';
export type { WaitEvent } from './core/transport/transport.js';
export type { ClientOptions } from './resources/client-options.js';
export type { Logger, LogLevel } from './shared/logger.js';
export type { DriftReport, DriftHandler } from './contract/drift-report.js';
export type { Mismatch } from './contract/drift.js';
export { ApiPromise } from './core/call/api-promise.js';
export type { WithResponse } from './core/call/api-promise.js';
export type { RateLimitSnapshot } from './core/wire/headers.js';
export type { RateLimitStore, ObservedWindow } from './core/rate-limit/store.js';
export { Page, PagePromise } from './core/call/pagination.js';
export { BizMsgError, InvalidArgumentError } from './shared/errors.js';
export { normalizePhone, samePhone } from './shared/phone.js';
export type { PhoneFormat, NormalizePhoneOptions } from './shared/phone.js';
export {
  AbortError,
  HookError,
  ApiError,
  ValidationError,
  InvalidPhoneError,
  TemplateNotFoundError,
  AuthenticationError,
  KeyRevokedError,
  InsufficientPermissionsError,
  PlanLimitExceededError,
  ResourceNotFoundError,
  RateLimitExceededError,
  InternalError,
  MessagingError,
  ConnectionError,
  TimeoutError,
  ResponseValidationError,
} from './core/errors/classes.js';
export type { ResponseIssue } from './core/errors/classes.js';
export type { ErrorCode } from './contract/error-codes.js';
export type { Variant } from './contract/variant.js';
export type { ListMeta, OpenEnum } from './schemas/common.js';
export type { Contact, DeleteResult } from './schemas/contact.js';
export type {
  ContactCreateParams,
  ContactUpdateParams,
  Variant1ContactListParams,
  Variant2ContactListParams,
} from './schemas/contact-params.js';
export type { Message } from './schemas/message.js';
export type {
  Variant2SendMessageParams,
  Variant1SendTextParams,
  Variant2TextMessageParams,
  Variant2TemplateMessageParams,
  Variant1SendTemplateParams,
  TemplateContent,
  TextContent,
} from './schemas/message-params.js';
export type { Conversation, ConversationWithMessages, ConversationListParams } from './schemas/conversation.js';
export type { Campaign } from './schemas/campaign.js';
export type { CampaignCreateParams } from './schemas/campaign-params.js';
export type { WebhookEndpoint } from './schemas/webhook-endpoint.js';
export type { WebhookEventKind } from './schemas/event-kinds.js';
export type { WebhookEndpointCreateParams } from './schemas/webhook-endpoint-params.js';
export type { Account } from './schemas/account.js';
export { defineTemplates } from './templates/define.js';
export type {
  Templates,
  TemplateFunction,
  TemplateParams,
  TemplateValue,
  TemplateLanguageOf,
} from './templates/define.js';
export type { TemplateCatalog, TemplateSpec, TemplateButtonSpec } from './templates/catalog.js';
export type { FilledTemplate } from './templates/fill.js';
export type {
  TemplateComponent,
  TemplateHeaderComponent,
  TemplateBodyComponent,
  TemplateButtonComponent,
  TemplateParameter,
} from './schemas/message-params.js';
export type { AutomationExecution } from './schemas/automation.js';
export type { AutomationTriggerParams } from './schemas/automation-params.js';
