// Two mocks listening in one process share msw's interception, by base URL: two on the same base
// URL would leave the second unreachable, so its listen() is refused, saying what to do.
import { afterEach, expect, it } from 'vitest';
import { Variant1Client, Variant2Client } from '../../src/index.js';
import { createMockServer, InvalidArgumentError, type MockServer } from '../../src/mock/index.js';

const mocks: MockServer[] = [];
const made = (options: Parameters<typeof createMockServer>[0]) => {
  const mock = createMockServer(options);
  mocks.push(mock);
  return mock;
};
afterEach(() => {
  for (const mock of mocks.splice(0)) mock.close();
});

it('refuses a second listening mock on the same base URL, and serves two on their own base URLs', async () => {
  const v2 = made({ variant: 2 });
  const v1 = made({ variant: 1 });
  v2.listen();
  expect(() => v1.listen()).toThrow(InvalidArgumentError);
  expect(() => v1.listen()).toThrow(
    "Another mock listening in this process serves https://api.bizmsg.test/api/v1: give each mock its own baseUrl (createMockServer({ variant: 1, baseUrl: 'https://v1.bizmsg.test/api/v1' })), or close the other first.",
  );
  const own = made({ variant: 1, baseUrl: 'https://v1.bizmsg.test/api/v1' });
  own.listen();
  const sent = await new Variant1Client({ apiKey: own.apiKey, baseUrl: own.baseUrl }).messages.send({
    to: '4915112345678',
    message: 'x',
  });
  const account = await new Variant2Client({ apiKey: v2.apiKey, baseUrl: v2.baseUrl }).account.me();
  expect([typeof sent.id, own.store.messages.size, account.plan]).toEqual(['string', 1, 'enterprise']);
  // Once the first is closed, the second may listen on that base URL.
  v2.close();
  v1.listen();
  const v1Account = await new Variant1Client({ apiKey: v1.apiKey, baseUrl: v1.baseUrl }).account.me();
  expect(v1Account.plan).toBe('pro');
});
