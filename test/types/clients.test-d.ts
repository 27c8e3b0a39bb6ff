import { describe, expectTypeOf, it } from 'vitest';
import {
  type AbortError,
  type BizMsgError,
  type ClientHooks,
  type HookContext,
  type ApiPromise,
  type HookError,
  type LogLevel,
  type WithResponse,
  RateLimitExceededError,
  ValidationError,
  type Variant1Client,
  Variant2Client,
  type Contact,
  type Conversation,
  type ConversationWithMessages,
  type Account,
  type Campaign,
  type Message,
  type Page,
  type PagePromise,
  type WebhookEndpoint,
} from '../../src/index.js';
import type { ListMeta } from '../../src/schemas/common.js';
import type * as Names from '../../src/index.js';
import type { Variant } from '../../src/mock/index.js';

declare const v1: Variant1Client;
declare const v2: Variant2Client;

describe('message bodies', () => {
  it('requires content.body for a text message', () => {
    v2.messages.send({ to: '4915112345678', messaging_account_id: 1, type: 'text', content: { body: 'Hi' } });
    // @ts-expect-error body is missing
    v2.messages.send({ to: '4915112345678', messaging_account_id: 1, type: 'text', content: {} });
    v2.messages.send({
      to: '4915112345678',
      messaging_account_id: 1,
      type: 'text',
      // @ts-expect-error a text message has no template fields
      content: { name: 'x', language: 'en', components: [] },
    });
  });

  it('requires name, language and components for a template message', () => {
    v2.messages.send({
      to: '1',
      messaging_account_id: 1,
      type: 'template',
      content: { name: 'w', language: 'en', components: [] },
    });
    // @ts-expect-error components is missing
    v2.messages.send({ to: '1', messaging_account_id: 1, type: 'template', content: { name: 'w', language: 'en' } });
    // @ts-expect-error a template has no body
    v2.messages.send({ to: '1', messaging_account_id: 1, type: 'template', content: { body: 'x' } });
    // @ts-expect-error unknown message type
    v2.messages.send({ to: '1', messaging_account_id: 1, type: 'image', content: { body: 'x' } });
    // @ts-expect-error messaging_account_id is an integer
    v2.messages.sendText({ to: '1', messaging_account_id: '1', body: 'x' });
    // @ts-expect-error Variant 1 sends { to, message }
    v1.messages.send({ to: '1', body: 'x' });
  });

  it('resolves sends to a Message with an id', () => {
    expectTypeOf(
      v2.messages.sendText({ to: '1', messaging_account_id: 1, body: 'x' }),
    ).resolves.toEqualTypeOf<Message>();
    expectTypeOf<Message['id']>().toEqualTypeOf<string>();
    expectTypeOf<'sent'>().toExtend<NonNullable<Message['status']>>();
  });
});

describe('fields the service sends beyond the spec', () => {
  it('types timestamps, directions, counts and scopes, open where the service may add values', () => {
    expectTypeOf<Contact['created_at']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Contact['updated_at']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<'inbound'>().toExtend<NonNullable<Message['direction']>>();
    expectTypeOf<'sideways'>().toExtend<NonNullable<Message['direction']>>();
    expectTypeOf<Message['messaging_account_id']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Message['failed_at']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Campaign['sent_count']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Campaign['completed_at']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Account['scopes']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<WebhookEndpoint['disabled_at']>().toEqualTypeOf<string | null | undefined>();
  });
});

describe('lists', () => {
  it('returns PagePromises whose for await yields typed items', async () => {
    expectTypeOf(v2.contacts.list()).toEqualTypeOf<PagePromise<Contact>>();
    expectTypeOf(v1.contacts.list({ page: 2 })).toEqualTypeOf<PagePromise<Contact>>();
    for await (const contact of v2.contacts.list({ tag: 'vip' })) expectTypeOf(contact).toEqualTypeOf<Contact>();
    for await (const conversation of v2.conversations.list({ status: 'open' }))
      expectTypeOf(conversation).toEqualTypeOf<Conversation>();
    for await (const endpoint of v2.webhooks.list()) expectTypeOf(endpoint).toEqualTypeOf<WebhookEndpoint>();
    const page = await v2.contacts.list();
    expectTypeOf(page).toEqualTypeOf<Page<Contact>>();
    expectTypeOf(page.meta).toEqualTypeOf<ListMeta | undefined>();
    expectTypeOf(await v2.contacts.list().toArray({ max: 5 })).toEqualTypeOf<Contact[]>();
    // @ts-expect-error conversations are open, closed or pending
    v2.conversations.list({ status: 'archived' });
    // @ts-expect-error Variant 1 lists have no search
    v1.contacts.list({ search: 'x' });
  });

  it('types a conversation with its messages', () => {
    expectTypeOf(v2.conversations.get('c1')).resolves.toEqualTypeOf<ConversationWithMessages>();
    expectTypeOf<ConversationWithMessages['messages']>().toEqualTypeOf<Message[]>();
  });
});

describe('errors', () => {
  it('narrows with instanceof and is()', () => {
    const error: unknown = undefined;
    if (error instanceof RateLimitExceededError) expectTypeOf(error.retryAfter).toEqualTypeOf<number | undefined>();
    if (ValidationError.is(error)) expectTypeOf(error.details).toEqualTypeOf<Record<string, string[]>>();
  });

  it('does not expose the key or the request function', () => {
    // @ts-expect-error no apiKey property
    void v2.apiKey;
    // @ts-expect-error the request function is protected
    void v2.http;
  });
});

describe('raw responses and observability options', () => {
  it('returns an ApiPromise whose withResponse() and asResponse() are typed', async () => {
    expectTypeOf(v2.contacts.get(1)).toEqualTypeOf<ApiPromise<Contact>>();
    expectTypeOf(await v2.contacts.get(1)).toEqualTypeOf<Contact>();
    expectTypeOf(
      await v2.messages.sendText({ to: '1', messaging_account_id: 1, body: 'x' }).withResponse(),
    ).toEqualTypeOf<WithResponse<Message>>();
    expectTypeOf(await v1.account.me().asResponse()).toEqualTypeOf<Response>();
    const page = await v2.contacts.list();
    expectTypeOf(page.response).toEqualTypeOf<Response>();
  });

  it("takes bizmsg's hooks and onWait, a log level and a logger", () => {
    new Variant2Client({
      apiKey: 'k',
      baseUrl: 'https://x.test/api/v1',
      logLevel: 'debug',
      logger: console,
      hooks: {
        beforeRequest: [(request, { attempt }) => void request.headers.set('x-attempt', String(attempt))],
        afterResponse: [(_request, response) => (response.status === 204 ? new Response('{}') : undefined)],
        beforeRetry: [({ attempt, delayMs, error }) => void [attempt, delayMs, error.message]],
        beforeError: [(error, { path }) => (error.message.includes(path) ? error : undefined)],
      },
      onWait: (wait) => {
        expectTypeOf(wait.reason).toEqualTypeOf<'pacing' | 'retry'>();
        expectTypeOf(wait.status).toEqualTypeOf<number | undefined>();
      },
    });
    new Variant2Client({
      apiKey: 'k',
      baseUrl: 'https://x.test/api/v1',
      // @ts-expect-error ky's beforeRetry was told retryCount; bizmsg's is told the attempt
      hooks: { beforeRetry: [({ retryCount }) => void retryCount] },
    });
    expectTypeOf<ClientHooks['beforeError']>().toEqualTypeOf<
      | ReadonlyArray<(error: BizMsgError, context: HookContext) => BizMsgError | void | Promise<BizMsgError | void>>
      | undefined
    >();
    // @ts-expect-error not a level
    new Variant2Client({ apiKey: 'k', baseUrl: 'https://x.test/api/v1', logLevel: 'verbose' });
    expectTypeOf<LogLevel>().toEqualTypeOf<'off' | 'error' | 'warn' | 'info' | 'debug'>();
  });

  it('types the cause of an AbortError and the hook of a HookError', () => {
    expectTypeOf<HookError['hook']>().toEqualTypeOf<string>();
    expectTypeOf<AbortError>().toMatchTypeOf<Error>();
  });
});

describe('one scheme for variant-specific names, one name per type', () => {
  it('names the types of one variant after it', () => {
    expectTypeOf(v1.messages.send).parameter(0).toEqualTypeOf<Names.Variant1SendTextParams>();
    expectTypeOf(v2.messages.sendText).parameter(0).toEqualTypeOf<Names.Variant2SendTextParams>();
    expectTypeOf(v1.contacts.list).parameter(0).toEqualTypeOf<Names.Variant1ContactListParams | undefined>();
    expectTypeOf(v2.contacts.list).parameter(0).toEqualTypeOf<Names.Variant2ContactListParams | undefined>();
    expectTypeOf(v1.account).toEqualTypeOf<Names.Variant1Account>();
    expectTypeOf(v2.account).toEqualTypeOf<Names.Variant2Account>();
    expectTypeOf<Variant>().toEqualTypeOf<Names.Variant>();
  });
});

describe('error codes, typed end to end', () => {
  it('narrows `code` on each class, and offers the known codes on ApiError without closing it', () => {
    expectTypeOf<ValidationError['code']>().toEqualTypeOf<'VALIDATION_ERROR'>();
    expectTypeOf<RateLimitExceededError['code']>().toEqualTypeOf<'RATE_LIMIT_EXCEEDED'>();
    expectTypeOf<Names.ApiError['code']>().toExtend<string>();
    expectTypeOf<'KEY_REVOKED'>().toExtend<Names.ApiError['code']>();
    expectTypeOf<'SOMETHING_NEWER'>().toExtend<Names.ApiError['code']>();
    expectTypeOf<Names.ErrorCode>().toExtend<Names.ApiError['code']>();
  });
});
