import { describe, expect, it } from 'vitest';
import * as main from '../src/index.js';
import * as mockBrowser from '../src/mock/browser.js';
import * as mock from '../src/mock/index.js';
import * as mockWeb from '../src/mock/web.js';
import * as redis from '../src/redis/index.js';
import * as webhooks from '../src/webhooks/index.js';
import * as webhooksWeb from '../src/webhooks/web.js';

describe('entry points', () => {
  it('bizmsg exports exactly these names', () => {
    expect(Object.keys(main).sort()).toMatchInlineSnapshot(`
      [
        "AbortError",
        "ApiError",
        "ApiPromise",
        "AuthenticationError",
        "BizMsgError",
        "ConnectionError",
        "HookError",
        "InsufficientPermissionsError",
        "InternalError",
        "InvalidArgumentError",
        "InvalidPhoneError",
        "KeyRevokedError",
        "MessagingError",
        "Page",
        "PagePromise",
        "PlanLimitExceededError",
        "RateLimitExceededError",
        "ResourceNotFoundError",
        "ResponseValidationError",
        "TemplateNotFoundError",
        "TimeoutError",
        "ValidationError",
        "Variant1Client",
        "Variant2Client",
      ]
    `);
  });

  it('bizmsg/webhooks exports exactly these names', () => {
    expect(Object.keys(webhooks).sort()).toMatchInlineSnapshot(`
      [
        "WEBHOOK_EVENT_KINDS",
        "WebhookVerificationError",
        "createWebhookHandler",
        "defineWebhookHandlers",
        "memoryDedupeStore",
        "parseWebhook",
        "parseWebhookAsync",
        "signWebhook",
        "signWebhookAsync",
        "verifyWebhook",
        "verifyWebhookAsync",
        "webhookMiddleware",
      ]
    `);
  });

  it('the Web build of bizmsg/webhooks exports the same names', () => {
    expect(Object.keys(webhooksWeb).sort()).toEqual(Object.keys(webhooks).sort());
  });

  it('bizmsg/mock exports exactly these names', () => {
    expect(Object.keys(mock).sort()).toMatchInlineSnapshot(`
      [
        "AUTOMATIONS",
        "BODY_LIMITS",
        "DEFAULT_TEMPLATES",
        "LIFECYCLE_MS",
        "MAGIC_NUMBERS",
        "MESSAGING_ACCOUNTS",
        "MockServer",
        "MockService",
        "PAGE_SIZE",
        "SCOPES",
        "SEGMENTS",
        "VARIANT1_PLANS",
        "VARIANT2_PLANS",
        "WEBHOOK_RETRY_DELAYS_MS",
        "createMockServer",
        "openApiDocument",
        "startMockHttpServer",
      ]
    `);
  });

  it('the Web build of bizmsg/mock (Workers) exports the names of the Node build that need no msw/node or node:http', () => {
    const nodeOnly = ['MockServer', 'createMockServer', 'startMockHttpServer'];
    expect(Object.keys(mockWeb).sort()).toEqual(
      Object.keys(mock)
        .filter((name) => !nodeOnly.includes(name))
        .sort(),
    );
  });

  it("the browser build of bizmsg/mock exports the Web build's names and msw's Service Worker mock", () => {
    expect(Object.keys(mockBrowser).sort()).toEqual([...Object.keys(mockWeb), 'MockWorker', 'createMockWorker'].sort());
  });

  it('bizmsg/redis exports exactly these names', () => {
    expect(Object.keys(redis).sort()).toMatchInlineSnapshot(`
      [
        "redisDedupeStore",
        "redisRateLimitStore",
      ]
    `);
  });
});
