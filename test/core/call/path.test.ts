import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, Variant1Client, Variant2Client } from '../../../src/index.js';
import { json, scriptedFetch } from '../../helpers/scripted-fetch.js';

const BASE = 'https://api.bizmsg.test/api/v1';

/** Every client method that puts an id in its path, called with `id`. */
function idCalls(id: string): Array<[string, (fetch: typeof globalThis.fetch) => Promise<unknown>]> {
  const v1 = (fetch: typeof globalThis.fetch) => new Variant1Client({ apiKey: 'k', baseUrl: BASE, fetch });
  const v2 = (fetch: typeof globalThis.fetch) => new Variant2Client({ apiKey: 'k', baseUrl: BASE, fetch });
  return [
    ['Variant1 messages.status', (f) => v1(f).messages.status(id)],
    ['Variant1 contacts.get', (f) => v1(f).contacts.get(id)],
    ['Variant1 contacts.update', (f) => v1(f).contacts.update(id, { name: 'Ada' })],
    ['Variant2 contacts.get', (f) => v2(f).contacts.get(id)],
    ['Variant2 contacts.update', (f) => v2(f).contacts.update(id, { name: 'Ada' })],
    ['Variant2 contacts.delete', (f) => v2(f).contacts.delete(id)],
    ['Variant2 conversations.get', (f) => v2(f).conversations.get(id)],
  ];
}

describe('path ids', () => {
  it.each(idCalls(''))('%s rejects an empty id with InvalidArgumentError, sending nothing', async (_, call) => {
    const { fetch, requests } = scriptedFetch(json(200, { data: {} }));
    const error = await call(fetch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toBe(
      'An id must be a non-empty string or a non-negative integer, got an empty string.',
    );
    expect(requests).toEqual([]);
  });
});
