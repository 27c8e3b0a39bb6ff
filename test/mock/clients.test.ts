import { describe, expect, it } from 'vitest';
import {
  KeyRevokedError,
  RateLimitExceededError,
  ResourceNotFoundError,
  ValidationError,
  Variant1Client,
  Variant2Client,
} from '../../src/index.js';
import { createMockServer } from '../../src/mock/index.js';
import { useMocks } from '../helpers/mock-api.js';

const v1 = createMockServer({
  variant: 1,
  baseUrl: 'https://v1.bizmsg.test/api/v1',
  plans: { burst: { rateLimit: 5, window: 1000 } },
});
const v2 = createMockServer({
  variant: 2,
  baseUrl: 'https://v2.bizmsg.test/api/v1',
  plans: { burst: { rateLimit: 5, window: 1000 } },
});
// Two instances side by side in one process.
useMocks(v1, v2);

/** A fetch that counts the statuses it sees. */
function countingFetch() {
  const statuses: number[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    statuses.push(response.status);
    return response;
  };
  return { fetch, statuses };
}

describe('the clients against the mock', () => {
  it('Variant 1: create, list, send, status, typed errors', async () => {
    const client = new Variant1Client({ apiKey: v1.apiKey, baseUrl: v1.baseUrl });
    const contact = await client.contacts.create({ phone: '4915112345678', name: 'Ada', tags: ['vip'] });
    expect((await client.contacts.list()).data).toEqual([contact]);
    const sent = await client.messages.send({ to: contact.phone, message: 'Hi' });
    expect(sent).toMatchObject({ id: 'msg_1', message_id: 'msg_1', status: 'sent' });
    await v1.clock.advance(1000);
    expect((await client.messages.status(sent.id)).status).toBe('delivered');
    await expect(client.contacts.create({ phone: '4915112345678', name: '' })).rejects.toBeInstanceOf(ValidationError);
    await expect(client.contacts.get(999)).rejects.toBeInstanceOf(ResourceNotFoundError);
    const key = v1.createKey();
    v1.revokeKey(key);
    await expect(new Variant1Client({ apiKey: key, baseUrl: v1.baseUrl }).account.me()).rejects.toBeInstanceOf(
      KeyRevokedError,
    );
  });

  it('a refused field keeps its reason in String(error), on both variants', async () => {
    for (const [mock, Client, status] of [
      [v1, Variant1Client, 400],
      [v2, Variant2Client, 422],
    ] as const) {
      const client = new Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
      const error = await client.contacts.create({ name: 'Ada' } as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(String(error)).toBe(
        `ValidationError: POST /contacts${mock.variant === 1 ? '/create' : ''} failed with ${status} VALIDATION_ERROR: Invalid request parameters: phone. (phone: is required)`,
      );
    }
  });

  it('Variant 2: pages through every contact with and without prefetch', async () => {
    const client = new Variant2Client({ apiKey: v2.apiKey, baseUrl: v2.baseUrl });
    for (let i = 1; i <= 23; i++)
      await client.contacts.create({ name: `c${i}`, phone: `4915100000${String(i).padStart(3, '0')}` });
    const sequential = await client.contacts.list({ per_page: 5 }).toArray();
    const prefetched = await client.contacts.list({ per_page: 5 }, { prefetch: 3 }).toArray();
    expect(sequential.map((c) => c.name)).toEqual(Array.from({ length: 23 }, (_, i) => `c${i + 1}`));
    expect(prefetched).toEqual(sequential);
  });

  it('paces a concurrent burst under the per-key limit: no 429 at all', async () => {
    const { fetch, statuses } = countingFetch();
    const client = new Variant2Client({
      apiKey: v2.createKey({ plan: 'burst' }),
      baseUrl: v2.baseUrl,
      fetch,
      maxRetries: 0,
    });
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < 12) {
          next += 1;
          await client.account.me();
        }
      }),
    );
    expect(statuses).toEqual(Array(12).fill(200));
  });

  it('without pacing the same burst meets 429s, typed with retryAfter', async () => {
    const client = new Variant2Client({
      apiKey: v2.createKey({ plan: 'burst' }),
      baseUrl: v2.baseUrl,
      rateLimit: false,
      maxRetries: 0,
    });
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => client.account.me()));
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected.length).toBeGreaterThanOrEqual(1);
    expect(rejected[0]!.reason).toBeInstanceOf(RateLimitExceededError);
    expect((rejected[0]!.reason as RateLimitExceededError).retryAfter).toBe(1);
  });
});
