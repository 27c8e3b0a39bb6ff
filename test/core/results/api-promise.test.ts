import { describe, expect, it } from 'vitest';
import { ApiPromise, Page, ResourceNotFoundError, Variant2Client } from '../../../src/index.js';
import { json, scriptedFetch, v2Error, type Step } from '../../helpers/scripted-fetch.js';

const BASE = 'https://api.bizmsg.test/api/v1';
const limits = {
  'x-ratelimit-limit': '100',
  'x-ratelimit-remaining': '42',
  'x-ratelimit-reset': '1795000000',
  'x-request-id': 'req_7',
};

function setup(...steps: Step[]) {
  const { fetch, requests } = scriptedFetch(...steps);
  return { client: new Variant2Client({ apiKey: 'k', baseUrl: BASE, fetch, maxRetries: 0 }), requests };
}

describe('ApiPromise', () => {
  it('is what every method returns, and awaits to the parsed payload', async () => {
    const { client } = setup(json(200, { data: { id: 1, phone: '4915112345678' } }));
    const pending = client.contacts.get(1);
    expect(pending).toBeInstanceOf(ApiPromise);
    expect(Object.prototype.toString.call(pending)).toBe('[object ApiPromise]');
    await expect(pending).resolves.toEqual({ id: 1, phone: '4915112345678' });
  });

  it('withResponse() gives the payload, the response with its headers and an unread body, and the rate limit', async () => {
    const { client, requests } = setup(json(200, { data: { id: 1, phone: '4915112345678' } }, limits));
    const { data, response, rateLimit } = await client.contacts.get(1).withResponse();
    expect(data).toEqual({ id: 1, phone: '4915112345678' });
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${BASE}/contacts/1`);
    expect(response.headers.get('x-request-id')).toBe('req_7');
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ data: { id: 1, phone: '4915112345678' } });
    expect(rateLimit).toEqual({ limit: 100, remaining: 42, reset: 1795000000 });
    expect(requests).toHaveLength(1);
  });

  it('asResponse() gives the response without parsing it, so a body the schema refuses still comes back', async () => {
    const { client } = setup(json(200, { data: { unexpected: true } }));
    const response = await client.contacts.get(1).asResponse();
    expect(await response.text()).toBe('{"data":{"unexpected":true}}');
  });

  it('asResponse() and withResponse() still reject with the typed error of an error status', async () => {
    const { client } = setup(v2Error(404, 'RESOURCE_NOT_FOUND', 'gone'));
    await expect(client.contacts.get(1).asResponse()).rejects.toBeInstanceOf(ResourceNotFoundError);
    await expect(client.contacts.get(2).withResponse()).rejects.toBeInstanceOf(ResourceNotFoundError);
  });

  it('sends once, however many of await, withResponse and asResponse are used', async () => {
    const { client, requests } = setup(json(200, { data: { id: 1, phone: '4915112345678' } }));
    const pending = client.contacts.get(1);
    const [a, b, c] = await Promise.all([pending, pending.withResponse(), pending.asResponse()]);
    expect(a).toEqual(b.data);
    expect(c.status).toBe(200);
    expect(requests).toHaveLength(1);
  });

  it('answers an empty 204 with an unread, empty response', async () => {
    const { client } = setup(new Response(null, { status: 204 }));
    const { data, response } = await client.contacts.delete(5).withResponse();
    expect(data).toEqual({ id: 5, deleted: true });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });
});

describe('Page', () => {
  it('exposes its response and rate limit', async () => {
    const { client } = setup(
      json(
        200,
        { data: [{ id: 1, phone: '1' }], meta: { current_page: 1, per_page: 1, total: 1, last_page: 1 } },
        limits,
      ),
    );
    const page = await client.contacts.list();
    expect(page).toBeInstanceOf(Page);
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get('x-request-id')).toBe('req_7');
    expect(page.rateLimit).toEqual({ limit: 100, remaining: 42, reset: 1795000000 });
  });
});
