// What every build of bizmsg/mock exports: the Web-API core. Each entry file adds what its runtime has.
export { MockService } from './service.js';
export type { MockActivity, MockSnapshot } from './service.js';
export { connectMock } from './control/client.js';
export type { ConnectMockOptions } from './control/client.js';
export type { MockControl, MockHealth } from './operations.js';
export type { MockCustomer, SayOptions } from './customer/customer.js';
export type { CustomerMessage, Transcript } from './customer/transcript.js';
export { controlApiDocument } from './control/document.js';
export type { ControlApiDocumentOptions } from './control/document.js';
export { openApiDocument } from '../openapi/document.js';
export type { OpenApiOptions } from '../openapi/document.js';
export { BODY_LIMITS, LIFECYCLE_MS, MAGIC_NUMBERS, SCOPES, WEBHOOK_RETRY_DELAYS_MS } from './options.js';
export type { MockKeySpec, MockPlan, MockSeed, MockServedOn, MockServerOptions, Scope } from './options.js';
export type { Variant } from '../contract/variant.js';
export { BizMsgError, InvalidArgumentError } from '../shared/errors.js';
export type { FaultSpec, InjectedFault } from './rules/faults.js';
export type { RequestFilter } from './state/journal.js';
export type { IdPage } from './state/page.js';
export type { RecordedRequest } from './state/records.js';
export type { MockAnswer, MockRequest } from './wire/request.js';
export type { VirtualClock } from './state/clock.js';
export type { MockKey, MockState } from './state/store.js';
export type { ContactList } from './state/store.js';
export type {
  DeliveryAttempt,
  PendingTask,
  SentEmail,
  StoredCampaign,
  StoredContact,
  StoredConversation,
  StoredMessage,
  StoredWebhookEndpoint,
} from './state/records.js';
