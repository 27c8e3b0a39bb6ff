import { describe, expect, it } from 'vitest';
import { type ResponseValidationError, type ValidationError, Variant2Client } from '../../../src/index.js';
import { createMockServer } from '../../../src/mock/index.js';
import { rawApi, useMocks } from '../../helpers/mock-api.js';

const mock = createMockServer({ variant: 2, baseUrl: 'https://issues.bizmsg.test/api/v1' });
useMocks(mock);

describe('one wording of zod issues', () => {
  it('says the same of a missing or mistyped field in a response the client reads and in a request the mock reads', async () => {
    const answers = [{ data: { id: 1, name: 'Ada' } }, { data: { id: 1, phone: [5] } }];
    const fetch = async () => Response.json(answers.shift());
    const client = new Variant2Client({ apiKey: 'k', baseUrl: 'https://x.test/api/v1', fetch });
    const missing = (await client.contacts.get(1).catch((e: unknown) => e)) as ResponseValidationError;
    const mistyped = (await client.contacts.get(1).catch((e: unknown) => e)) as ResponseValidationError;
    expect([missing.issues[0]!.message, mistyped.issues[0]!.message]).toEqual(['is required', 'must be a string']);

    const api = rawApi(mock);
    expect((await api('POST', '/contacts', { body: { name: 'Ada' } })).body.error.details).toEqual({
      phone: ['is required'],
    });
    expect((await api('POST', '/contacts', { body: { name: 'Ada', phone: 5 } })).body.error.details).toEqual({
      phone: ['must be a string'],
    });
    const real = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
    const error = (await real.messages
      .send({ to: '4915112345678', messaging_account_id: 1, type: 'video' } as never)
      .catch((e: unknown) => e)) as ValidationError;
    expect(error.details).toEqual({ type: ['must be one of text, template'] });
  });
});
