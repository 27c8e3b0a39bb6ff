import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError, ResponseValidationError, Variant1Client, Variant2Client } from '../../../src/index.js';
import { scriptedFetch } from '../../helpers/scripted-fetch.js';

const BASE = 'https://api.bizmsg.test/api/v1';
const KEY = 'sk_test_envelope_property_0001';
const clients = (response: () => Response) => {
  const { fetch } = scriptedFetch(() => response());
  return [
    new Variant1Client({ apiKey: KEY, baseUrl: BASE, fetch, maxRetries: 0 }),
    new Variant2Client({ apiKey: KEY, baseUrl: BASE, fetch, maxRetries: 0 }),
  ] as const;
};

describe('envelopes (properties)', () => {
  it('any 200 body gives a parsed contact or a ResponseValidationError, nothing else', async () => {
    const bodies = fc.oneof(
      fc.json(),
      fc.string(),
      fc.record({ success: fc.constant(true), data: fc.anything() }).map((v) => JSON.stringify(v)),
      fc
        .record({
          data: fc.record({ id: fc.oneof(fc.integer(), fc.string()), phone: fc.oneof(fc.string(), fc.integer()) }),
        })
        .map((v) => JSON.stringify(v)),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        for (const client of clients(() => new Response(body, { status: 200 }))) {
          const result = await client.contacts.get(1).then(
            (contact) => ({ contact }),
            (error: unknown) => ({ error }),
          );
          if ('error' in result) {
            expect(result.error).toBeInstanceOf(ResponseValidationError);
            expect((result.error as ResponseValidationError).body).toBe(body);
          } else {
            expect(typeof result.contact.phone).toBe('string');
            expect(['string', 'number']).toContain(typeof result.contact.id);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('any error status and body gives an ApiError with that status and a string code', async () => {
    const envelopes = fc.oneof(
      fc.json(),
      fc.string(),
      fc
        .record({
          error: fc.record(
            { code: fc.oneof(fc.string(), fc.integer()), message: fc.anything(), details: fc.anything() },
            { requiredKeys: [] },
          ),
        })
        .map((v) => JSON.stringify(v)),
      fc.record({ success: fc.constant(false), error: fc.anything() }).map((v) => JSON.stringify(v)),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 400, max: 599 }), envelopes, async (status, body) => {
        for (const client of clients(() => new Response(body, { status }))) {
          const error = (await client.contacts.get(1).catch((e: unknown) => e)) as ApiError;
          expect(error).toBeInstanceOf(ApiError);
          expect(error.status).toBe(status);
          expect(typeof error.code).toBe('string');
          expect(error.code.length).toBeGreaterThan(0);
          expect(typeof error.details).toBe('object');
          expect(error.message.startsWith(`GET /contacts/1 failed with ${status} `)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
