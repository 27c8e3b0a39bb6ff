import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/index.js';
import { errorEnvelope, rawApi, useMocks } from '../helpers/mock-api.js';

const v1 = createMockServer({ variant: 1, baseUrl: 'https://empty-id-v1.bizmsg.test/api/v1' });
const v2 = createMockServer({ variant: 2, baseUrl: 'https://empty-id-v2.bizmsg.test/api/v1' });
useMocks(v1, v2);

describe('a path whose id is empty', () => {
  it.each([
    [2, 'GET', '/contacts/'],
    [2, 'PUT', '/contacts/'],
    [2, 'DELETE', '/contacts/'],
    [2, 'GET', '/conversations/'],
    [1, 'GET', '/contacts/'],
    [1, 'PUT', '/contacts/'],
    [1, 'GET', '/messages//status'],
  ] as const)('Variant %i: %s %s is 404 RESOURCE_NOT_FOUND, never the list', async (variant, method, path) => {
    const mock = variant === 1 ? v1 : v2;
    const response = await rawApi(mock)(method, path, method === 'PUT' ? { body: { name: 'Ada' } } : {});
    expect([response.status, response.body]).toEqual([
      404,
      errorEnvelope(variant, {
        code: 'RESOURCE_NOT_FOUND',
        message: `No endpoint ${method} ${path} in Variant ${variant}.`,
      }),
    ]);
  });

  it('changes nothing', async () => {
    const before = JSON.stringify(v2.store.contacts);
    await rawApi(v2)('DELETE', '/contacts/');
    expect(JSON.stringify(v2.store.contacts)).toBe(before);
  });
});
