// Two msw setupServers in one process do not stack: whichever listens last intercepts alone (msw's
// own behaviour). A suite that has its own setupServer composes the mock's handlers into it instead.
import { inspect } from 'node:util';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Variant2Client } from '../../src/index.js';
import { createMockServer, InvalidArgumentError } from '../../src/mock/index.js';

const mock = createMockServer({ variant: 2, baseUrl: 'https://composed.bizmsg.test/api/v1' });
const server = setupServer(
  ...mock.handlers,
  http.get('https://my-app.test/hello', () => HttpResponse.json({ hello: 'world' })),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  server.close();
  mock.pause();
});

it('serves the mock and your own handlers from your setupServer(...mock.handlers, ...yours)', async () => {
  const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
  const contact = await client.contacts.create({ name: 'Ada', phone: '4915112345678' });
  const yours = await fetch('https://my-app.test/hello');
  expect([contact.id, mock.store.contacts.length, yours.status, await yours.json()]).toEqual([
    1,
    1,
    200,
    { hello: 'world' },
  ]);
});

it('refuses a base URL that is not one with an InvalidArgumentError that never shows it (it may be a key)', () => {
  const key = 'sk_test_0123456789abcdef0123456789abcdef';
  let error: unknown;
  try {
    createMockServer({ baseUrl: key });
  } catch (caught) {
    error = caught;
  }
  expect(error).toEqual(
    new InvalidArgumentError(
      'The `baseUrl` option must be an absolute URL (https://api.bizmsg.test/api/v1), got a string of 40 characters (not shown: it may be a secret, such as a key pasted in the wrong place).',
    ),
  );
  expect(inspect(error)).not.toContain('0123456789abcdef');
});
