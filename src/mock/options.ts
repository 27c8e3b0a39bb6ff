// The mock's options and the data it serves: plans, templates, segments, magic numbers, timings.
import type { Scope } from '../contract/scopes.js';
import type { Variant } from '../contract/variant.js';
import type { WebhookEventKind } from '../schemas/event-kinds.js';
import type { TemplateCatalog } from '../templates/catalog.js';

export { SCOPES, type Scope } from '../contract/scopes.js';
export { WEBHOOK_RETRY_DELAYS_MS } from '../contract/webhooks.js';

/** A plan: its rate limit per window, and the limits that give PLAN_LIMIT_EXCEEDED. */
export interface MockPlan {
  /** Requests per window per key. */
  rateLimit: number;
  /** Window length in ms (default 60000: the spec's per-minute limits). */
  window?: number | undefined;
  /** Most contacts the account may hold. */
  maxContacts?: number | undefined;
  /** Most registered webhook endpoints. */
  maxWebhookEndpoints?: number | undefined;
  /** Most outbound messages (texts, templates, campaign sends). */
  maxMessages?: number | undefined;
}

/** An API key known to the mock. */
export interface MockKeySpec {
  /** The API key, as clients send it. */
  key: string;
  /** Scopes of the key; left out means all of them, `[]` none (every endpoint then answers 403). */
  scopes?: readonly Scope[] | undefined;
  /** Plan name; default: the variant's largest named plan. */
  plan?: string | undefined;
  /** True for a revoked key: every request with it answers 401 `KEY_REVOKED`. */
  revoked?: boolean | undefined;
}

/** Data a mock starts with, and returns to on `reset()`. */
export interface MockSeed {
  /** Seed of the random choices (sampled faults, generated keys); the same seed gives the same run. */
  random?: number | undefined;
  /** Contacts that exist from the start (no events are sent for them). */
  contacts?:
    | ReadonlyArray<{
        name: string;
        phone: string;
        email?: string | undefined;
        tags?: readonly string[] | undefined;
        custom_fields?: Record<string, unknown> | undefined;
      }>
    | undefined;
  /** Webhook endpoints registered from the start. */
  webhooks?: ReadonlyArray<{ url: string; events: readonly WebhookEventKind[]; secret: string }> | undefined;
}

/** Options of `createMockServer`. */
export interface MockServerOptions {
  /** The variant served (1: X-API-Key, `{success, data}`; 2: Bearer, `{data}`). Default 2. */
  variant?: Variant | undefined;
  /** Base URL of the served API, ending with `/api/v1` (default `https://api.bizmsg.test/api/v1`). */
  baseUrl?: string | undefined;
  /** Extra keys; a seeded all-scope key is always there as `apiKey`. */
  keys?: readonly MockKeySpec[] | undefined;
  /** Plans by name, merged over the variant's defaults. */
  plans?: Record<string, { [K in keyof MockPlan]?: MockPlan[K] | undefined }> | undefined;
  /**
   * The account's templates: a catalog (`defineTemplates(...).catalog`, or what `defineTemplates`
   * returned), against which each send's name, language and parameters per component are checked;
   * or just names (any language, any parameters). Others give TEMPLATE_NOT_FOUND. Default:
   * `DEFAULT_TEMPLATES`, by name.
   */
  templates?:
    | readonly string[]
    | TemplateCatalog
    | {
        /** The declaration `defineTemplates` took: what a `Templates` object holds. */
        readonly catalog: TemplateCatalog;
      }
    | undefined;
  /** Start data, or just the seed of the random choices (sampled faults, generated keys). */
  seed?: number | MockSeed | undefined;
  /** How long a webhook endpoint may take to answer before the attempt counts as failed (ms, default 10000). */
  webhookTimeout?: number | undefined;
  /**
   * How much of the past the mock keeps, newest first, so that a long run stays bounded: requests
   * in the journal (`requests()`), delivery attempts (`deliveries`) and e-mails. Default 1000 of
   * each; 0 keeps none (and journaling costs nothing). Whatever the count, each holds at most
   * 32 MiB (the oldest go first), a journal entry at most 64 KiB of a request body and 16 KiB of
   * its answer, cut when it is recorded.
   */
  history?:
    | {
        /** Requests the journal keeps (default 1000). */
        requests?: number | undefined;
        /** Delivery attempts and e-mails kept, each (default 1000). */
        deliveries?: number | undefined;
      }
    | undefined;
}

/**
 * Where the face serving a mock on this machine reaches it, besides its base URL (`startMockHttpServer`
 * passes it): each of these names and addresses, at the base URL's port, is the mock itself, and no
 * webhook may point there.
 */
export interface MockServedOn {
  /** This machine's names and addresses: its interfaces' addresses, its host name, the address bound. */
  readonly localHosts?: readonly string[] | undefined;
}

/** Default plans of Variant 1 (spec section 8; enterprise is "custom"). */
export const VARIANT1_PLANS: Record<string, MockPlan> = {
  starter: { rateLimit: 60, maxContacts: 1000, maxWebhookEndpoints: 2, maxMessages: 10_000 },
  growth: { rateLimit: 300, maxContacts: 10_000, maxWebhookEndpoints: 5, maxMessages: 100_000 },
  pro: { rateLimit: 1000, maxContacts: 100_000, maxWebhookEndpoints: 20, maxMessages: 1_000_000 },
  enterprise: { rateLimit: 5000 },
};

/** Default plans of Variant 2 (spec section 8). */
export const VARIANT2_PLANS: Record<string, MockPlan> = {
  starter: { rateLimit: 100, maxContacts: 1000, maxWebhookEndpoints: 2, maxMessages: 10_000 },
  professional: { rateLimit: 500, maxContacts: 10_000, maxWebhookEndpoints: 10, maxMessages: 100_000 },
  enterprise: { rateLimit: 2000 },
};

/** The plan the seeded key and keys without a plan get. */
export const DEFAULT_PLAN: Record<Variant, string> = { 1: 'pro', 2: 'enterprise' };

/** Templates that exist unless `templates` says otherwise. */
export const DEFAULT_TEMPLATES = ['welcome', 'order_update', 'appointment_reminder', 'promo'] as const;

/** Automations that exist (Variant 1 `POST /automations/trigger`). */
export const AUTOMATIONS = ['welcome-flow', 'abandoned-cart', 'feedback'] as const;

/** The number the business sends from (the `from` of outbound messages, the `to` of inbound ones). */
export const BUSINESS_NUMBER = '+15550100000';

/** Messaging accounts that exist (`messaging_account_id`). */
export const MESSAGING_ACCOUNTS = [1, 2] as const;

/** Segments campaigns can target: 1 is everyone, the others are contacts carrying a tag. */
export const SEGMENTS: ReadonlyArray<{ id: number; name: string; tag?: string }> = [
  { id: 1, name: 'All contacts' },
  { id: 2, name: 'VIP', tag: 'vip' },
  { id: 3, name: 'Newsletter', tag: 'newsletter' },
];

/**
 * Phone numbers with a fixed fate, for tests: sending to them fails on the channel, is
 * rejected by the upstream channel with a 502, or stays `sent` forever.
 */
export const MAGIC_NUMBERS = {
  /** The message is `sent`, then `failed` (a `message.failed` event). */
  fails: '+15550000001',
  /** The send is answered with 502 MESSAGING_ERROR; no message is created. */
  messagingError: '+15550000002',
  /** The message stays `sent`: never delivered, never read. */
  neverDelivered: '+15550000003',
} as const;

/** Delays of the message lifecycle on the mock's clock. */
export const LIFECYCLE_MS = { delivered: 1000, read: 5000, failed: 1000 } as const;

export { BODY_LIMITS, PAGE_SIZE } from '../contract/limits.js';
