// Compiled under strict by test/runtimes/typescript.package.test.ts in every moduleResolution mode the
// README claims, against the packed package's declarations, with the options `tsc --init` writes.
import { ApiError, Variant2Client, type BizMsgError, type Contact, type ClientOptions } from 'bizmsg';
import { parseWebhook, verifyWebhookAsync, type WebhookEvent, type WebhookVerificationError } from 'bizmsg/webhooks';
import { createMockServer, type MockServerOptions } from 'bizmsg/mock';
import { redisRateLimitStore, type RedisClientLike } from 'bizmsg/redis';

const options: ClientOptions = { apiKey: 'k', baseUrl: 'https://api.example.com/api/v1', timeout: 5_000 };
const mockOptions: MockServerOptions = { variant: 2 };

export async function firstVip(): Promise<Contact | undefined> {
  const client = new Variant2Client(options);
  for await (const contact of client.contacts.list({ tag: 'vip' })) return contact;
  return undefined;
}

export function deliveredAt(raw: string, signature: string): string | undefined {
  const event: WebhookEvent = parseWebhook(raw, signature, 'whsec');
  return event.event === 'message.delivered' ? event.data.delivered_at : undefined;
}

export const verified: Promise<boolean> = verifyWebhookAsync('{}', 'sha256=00', ['new', 'old']);
export const status = (error: unknown): number | undefined => (ApiError.is(error) ? error.status : undefined);
export const mock = createMockServer(mockOptions);
export const sharedBudget = (redis: RedisClientLike) =>
  new Variant2Client({ ...options, rateLimitStore: redisRateLimitStore(redis) });

// One BizMsgError for every entry: an error class of another entry is a BizMsgError of bizmsg.
export const asBizMsgError = (error: WebhookVerificationError): BizMsgError => error;
