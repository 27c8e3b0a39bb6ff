import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as main from '../src/index.js';
import * as mockBrowser from '../src/mock/browser.js';
import * as mock from '../src/mock/index.js';
import * as mockWeb from '../src/mock/web.js';
import * as bulk from '../src/bulk/index.js';
import * as redis from '../src/redis/index.js';
import * as webhooks from '../src/webhooks/index.js';
import * as webhooksWeb from '../src/webhooks/web.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const ENTRIES = {
  bizmsg: { file: 'src/index.ts', module: main },
  'bizmsg/webhooks': { file: 'src/webhooks/index.ts', module: webhooks },
  'bizmsg/mock': { file: 'src/mock/index.ts', module: mock },
  'bizmsg/redis': { file: 'src/redis/index.ts', module: redis },
  'bizmsg/bulk': { file: 'src/bulk/index.ts', module: bulk },
};

/** Every name each entry exports, values and types, with `(deprecated)` after those kept for one release; and which are values. */
function exportedNames(): { names: Record<string, string[]>; values: Record<string, string[]> } {
  const files = Object.values(ENTRIES).map(({ file }) => `${root}${file}`);
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const names: Record<string, string[]> = {};
  const values: Record<string, string[]> = {};
  for (const [entry, { file }] of Object.entries(ENTRIES)) {
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(`${root}${file}`)!)!);
    const targets = exports.map(
      (symbol) => [symbol, symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol] as const,
    );
    names[entry] = targets
      .map(([symbol, target]) =>
        target.getJsDocTags(checker).some((tag) => tag.name === 'deprecated')
          ? `${symbol.name} (deprecated)`
          : symbol.name,
      )
      .sort();
    values[entry] = targets
      .filter(([symbol, target]) => target.flags & ts.SymbolFlags.Value && !isTypeOnlyExport(symbol))
      .map(([symbol]) => symbol.name)
      .sort();
  }
  return { names, values };
}

/** `export type { X }` re-exports a class as a type only: at run time it is not there. */
function isTypeOnlyExport(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((declaration) => ts.isTypeOnlyExportDeclaration(declaration));
}

describe('entry points', () => {
  const { names, values } = exportedNames();

  it('export exactly these names, types included', () => {
    expect(names).toMatchInlineSnapshot(`
      {
        "bizmsg": [
          "AbortError",
          "Account",
          "ApiError",
          "ApiPromise",
          "AuthenticationError",
          "AutomationRun",
          "AutomationTriggerParams",
          "BizMsgError",
          "Campaign",
          "CampaignCreateParams",
          "ClientOptions",
          "ConnectionError",
          "Contact",
          "ContactCreateParams",
          "ContactSyncError",
          "ContactSyncOptions",
          "ContactSyncProgress",
          "ContactSyncReport",
          "ContactSyncResult",
          "ContactSyncRow",
          "ContactSyncRun",
          "ContactSyncStatus",
          "ContactUpdateParams",
          "ContactUpsertResult",
          "Conversation",
          "ConversationListParams",
          "ConversationStatus",
          "ConversationWithMessages",
          "DeleteResult",
          "DriftHandler",
          "DriftReport",
          "ErrorCode",
          "FilledTemplate",
          "HookError",
          "Id",
          "InsufficientPermissionsError",
          "InternalError",
          "InvalidArgumentError",
          "InvalidPhoneError",
          "KeyRevokedError",
          "ListMeta",
          "ListRequestOptions",
          "LogLevel",
          "Logger",
          "Message",
          "MessagingError",
          "Mismatch",
          "NormalizePhoneOptions",
          "ObservedWindow",
          "OpenEnum",
          "Page",
          "PagePromise",
          "PhoneFormat",
          "PlanLimitExceededError",
          "ProgressListener",
          "RateLimitExceededError",
          "RateLimitSnapshot",
          "RateLimitStore",
          "RequestOptions",
          "ResourceNotFoundError",
          "ResponseIssue",
          "ResponseValidationError",
          "Run",
          "TemplateButtonSpec",
          "TemplateCatalog",
          "TemplateComponent",
          "TemplateContent",
          "TemplateFunction",
          "TemplateLanguageOf",
          "TemplateNotFoundError",
          "TemplateParameter",
          "TemplateParams",
          "TemplateSpec",
          "TemplateValue",
          "Templates",
          "TimeoutError",
          "ValidationError",
          "Variant",
          "Variant1Account",
          "Variant1Automations",
          "Variant1Client",
          "Variant1ContactListParams",
          "Variant1Contacts",
          "Variant1Messages",
          "Variant1SendTemplateParams",
          "Variant1SendTextParams",
          "Variant2Account",
          "Variant2Campaigns",
          "Variant2Client",
          "Variant2ContactListParams",
          "Variant2Contacts",
          "Variant2Conversations",
          "Variant2Messages",
          "Variant2SendMessageParams",
          "Variant2SendTemplateParams",
          "Variant2SendTextParams",
          "Variant2Webhooks",
          "WebhookEndpoint",
          "WebhookEndpointCreateParams",
          "WebhookEventKind",
          "WithResponse",
          "defineTemplates",
          "normalizePhone",
          "samePhone",
        ],
        "bizmsg/bulk": [
          "BulkClient",
          "BulkConnection",
          "BulkError",
          "BulkJournal",
          "BulkJournalBusyError",
          "BulkJournalDamagedError",
          "BulkJournalMismatchError",
          "BulkMessage",
          "BulkProgress",
          "BulkProgressListener",
          "BulkQueueReport",
          "BulkReport",
          "BulkResult",
          "BulkRun",
          "BulkStatus",
          "BulkWorker",
          "BulkWorkerOptions",
          "EnqueueBulkOptions",
          "EnqueueReport",
          "JournalEntry",
          "SendBulkOptions",
          "Variant1BulkClient",
          "Variant2BulkClient",
          "bulkReport",
          "createBulkWorker",
          "enqueueBulk",
          "fileJournal",
          "memoryJournal",
          "sendBulk",
        ],
        "bizmsg/mock": [
          "AUTOMATIONS",
          "BODY_LIMITS",
          "BizMsgError",
          "ConnectMockOptions",
          "ControlApiDocumentOptions",
          "DEFAULT_TEMPLATES",
          "DeliveryAttempt",
          "DriftFinding",
          "DriftReport",
          "FaultSpec",
          "IdPage",
          "InjectedFault",
          "InvalidArgumentError",
          "LIFECYCLE_MS",
          "MAGIC_NUMBERS",
          "MESSAGING_ACCOUNTS",
          "MockActivity",
          "MockAnswer",
          "MockControl",
          "MockHealth",
          "MockHttpServer",
          "MockHttpServerOptions",
          "MockKey",
          "MockKeySpec",
          "MockPlan",
          "MockProxy",
          "MockProxyOptions",
          "MockReplay",
          "MockReplayOptions",
          "MockRequest",
          "MockSeed",
          "MockServedOn",
          "MockServer",
          "MockServerOptions",
          "MockService",
          "MockSnapshot",
          "MockState",
          "MockTrafficServer",
          "OpenApiOptions",
          "PAGE_SIZE",
          "PendingTask",
          "RecordedRequest",
          "ReplayMiss",
          "RequestFilter",
          "SCOPES",
          "SEGMENTS",
          "Scope",
          "SentEmail",
          "StoredCampaign",
          "StoredContact",
          "StoredConversation",
          "StoredMessage",
          "StoredWebhookEndpoint",
          "TrafficHealth",
          "TrafficOptions",
          "VARIANT1_PLANS",
          "VARIANT2_PLANS",
          "Variant",
          "VirtualClock",
          "WEBHOOK_RETRY_DELAYS_MS",
          "connectMock",
          "controlApiDocument",
          "createMockServer",
          "openApiDocument",
          "startMockHttpServer",
          "startMockProxy",
          "startMockReplay",
        ],
        "bizmsg/redis": [
          "DedupeClaim",
          "DedupeStore",
          "DedupeStoreOptions",
          "IoRedisLike",
          "NodeRedisLike",
          "ObservedWindow",
          "RateLimitStore",
          "RedisClientLike",
          "RedisDedupeStoreOptions",
          "RedisRateLimitStoreOptions",
          "RedisStatusStoreOptions",
          "StatusChange",
          "StatusError",
          "StatusRecord",
          "StatusStore",
          "StatusStoreOptions",
          "StatusSummary",
          "TrackedStatus",
          "redisDedupeStore",
          "redisRateLimitStore",
          "redisStatusStore",
        ],
        "bizmsg/webhooks": [
          "BizMsgError",
          "DedupeClaim",
          "DedupeStore",
          "DedupeStoreOptions",
          "DriftHandler",
          "DriftReport",
          "InvalidArgumentError",
          "Logger",
          "MemoryDedupeStoreOptions",
          "MemoryStatusStoreOptions",
          "MessageDeliveredEvent",
          "MessageFailedError",
          "Mismatch",
          "ParseWebhookOptions",
          "SignWebhookOptions",
          "StatusChange",
          "StatusError",
          "StatusGoal",
          "StatusRecord",
          "StatusSource",
          "StatusStore",
          "StatusStoreOptions",
          "StatusSummary",
          "StatusTimeoutError",
          "StatusTracker",
          "StatusTrackerOptions",
          "TrackableMessage",
          "TrackedStatus",
          "WEBHOOK_EVENT_KINDS",
          "WaitForOptions",
          "WebhookAnswer",
          "WebhookEvent",
          "WebhookEventData",
          "WebhookEventKind",
          "WebhookEventOf",
          "WebhookFailureReason",
          "WebhookHandlerOptions",
          "WebhookHandlers",
          "WebhookMiddleware",
          "WebhookPayload",
          "WebhookRequest",
          "WebhookResponse",
          "WebhookSecret",
          "WebhookVerificationError",
          "createStatusTracker",
          "createWebhookHandler",
          "defineWebhookHandlers",
          "memoryDedupeStore",
          "memoryStatusStore",
          "parseWebhook",
          "parseWebhookAsync",
          "signWebhook",
          "signWebhookAsync",
          "verifyWebhook",
          "verifyWebhookAsync",
          "webhookMiddleware",
        ],
      }
    `);
  });

  it('export at run time exactly the values among them', () => {
    for (const [entry, { module }] of Object.entries(ENTRIES)) {
      expect(Object.keys(module).sort(), entry).toEqual(values[entry]);
    }
  });

  it('the Web build of bizmsg/webhooks exports the same names', () => {
    expect(Object.keys(webhooksWeb).sort()).toEqual(Object.keys(webhooks).sort());
  });

  it('the Web build of bizmsg/mock (Workers) exports the names of the Node build that need no msw/node or node:http (nor the proxy and replay, on node:http too)', () => {
    const nodeOnly = ['MockServer', 'createMockServer', 'startMockHttpServer', 'startMockProxy', 'startMockReplay'];
    expect(Object.keys(mockWeb).sort()).toEqual(
      Object.keys(mock)
        .filter((name) => !nodeOnly.includes(name))
        .sort(),
    );
  });

  it("the browser build of bizmsg/mock exports the Web build's names and msw's Service Worker mock", () => {
    expect(Object.keys(mockBrowser).sort()).toEqual([...Object.keys(mockWeb), 'MockWorker', 'createMockWorker'].sort());
  });
});
