import fc from 'fast-check';
import { expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/index.js';
import { rawApi, useMocks } from '../helpers/mock-api.js';

const mock = createMockServer({ variant: 2, plans: { enterprise: { rateLimit: 1_000_000 } } });
const api = rawApi(mock);
useMocks(mock);

const validPhone = fc
  .tuple(fc.boolean(), fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 8, maxLength: 15 }))
  .map(([plus, digits]) => `${plus ? '+' : ''}${digits}`);

it('accepts every number of 8 to 15 digits with an optional + (property)', async () => {
  await fc.assert(
    fc.asyncProperty(validPhone, async (phone) => {
      const response = await api('POST', '/contacts', { body: { name: 'A', phone } });
      expect(response.status).toBe(201);
      expect(response.body.data.phone).toBe(phone);
    }),
    { numRuns: 100 },
  );
});

it('answers INVALID_PHONE to every other string, and never a 5xx (property)', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.string().filter((s) => !/^\+?\d{8,15}$/.test(s)),
      async (phone) => {
        const response = await api('POST', '/contacts', { body: { name: 'A', phone } });
        expect([response.status, response.body.error.code]).toEqual([400, 'INVALID_PHONE']);
      },
    ),
    { numRuns: 200 },
  );
});
