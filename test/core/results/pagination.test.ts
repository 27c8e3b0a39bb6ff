import { describe, expect, it, vi } from 'vitest';
import {
  AbortError,
  InvalidArgumentError,
  Page,
  PagePromise,
  ResponseValidationError,
  Variant1Client,
  Variant2Client,
} from '../../../src/index.js';
import { json, scriptedFetch, type SeenRequest } from '../../helpers/scripted-fetch.js';

const BASE = 'https://api.bizmsg.test/api/v1';
const contact = (i: number) => ({ id: i, name: `c${i}`, phone: `49151000000${String(i).padStart(2, '0')}` });

/** Serves `total()` contacts, `per_page` at a time, with exact meta; counts requests in flight. */
function pagedContacts(total: () => number, options: { delayMs?: number } = {}) {
  const stats = { inFlight: 0, maxInFlight: 0 };
  const respond = async (request: SeenRequest) => {
    stats.inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
    stats.inFlight -= 1;
    const url = new URL(request.url);
    const page = Number(url.searchParams.get('page') ?? '1');
    const perPage = Number(url.searchParams.get('per_page') ?? '3');
    const count = total();
    const data = Array.from({ length: Math.max(0, Math.min(perPage, count - (page - 1) * perPage)) }, (_, i) =>
      contact((page - 1) * perPage + i + 1),
    );
    return json(200, {
      data,
      meta: { current_page: page, per_page: perPage, total: count, last_page: Math.max(1, Math.ceil(count / perPage)) },
    });
  };
  return { respond, stats };
}

function v2(respond: (r: SeenRequest) => Response | Promise<Response>) {
  const { fetch, requests } = scriptedFetch(respond);
  return { client: new Variant2Client({ apiKey: 'k', baseUrl: BASE, fetch }), requests };
}

describe('PagePromise', () => {
  it('awaits to the first page with meta and page navigation', async () => {
    const { client } = v2(pagedContacts(() => 7).respond);
    const page = await client.contacts.list({ per_page: 3 });
    expect(page).toBeInstanceOf(Page);
    expect(page.data).toEqual([contact(1), contact(2), contact(3)]);
    expect(page.meta).toEqual({ current_page: 1, per_page: 3, total: 7, last_page: 3 });
    expect(page.hasNextPage()).toBe(true);
    const second = await page.getNextPage();
    expect(second.data.map((c) => c.id)).toEqual([4, 5, 6]);
    const third = await second.getNextPage();
    expect(third.data.map((c) => c.id)).toEqual([7]);
    expect(third.hasNextPage()).toBe(false);
    await expect(third.getNextPage()).rejects.toThrow(InvalidArgumentError);
  });

  it('walks every item of every page with for await, keeping the query', async () => {
    const { client, requests } = v2(pagedContacts(() => 7).respond);
    const ids: Array<string | number> = [];
    for await (const c of client.contacts.list({ per_page: 3, tag: 'vip' })) ids.push(c.id);
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(requests.map((r) => new URL(r.url).search)).toEqual([
      '?per_page=3&tag=vip',
      '?per_page=3&tag=vip&page=2',
      '?per_page=3&tag=vip&page=3',
    ]);
  });

  it('walks pages with .pages() and starts from the page asked for', async () => {
    const { client } = v2(pagedContacts(() => 7).respond);
    const pages: number[][] = [];
    for await (const page of client.contacts.list({ per_page: 3, page: 2 }).pages())
      pages.push(page.data.map((c) => Number(c.id)));
    expect(pages).toEqual([[4, 5, 6], [7]]);
  });

  it('collects with toArray, stopping at max without fetching further pages', async () => {
    const { client, requests } = v2(pagedContacts(() => 30).respond);
    expect((await client.contacts.list({ per_page: 3 }).toArray({ max: 4 })).map((c) => c.id)).toEqual([1, 2, 3, 4]);
    expect(requests).toHaveLength(2);
    expect(await client.contacts.list({ per_page: 3 }).toArray({ max: 0 })).toEqual([]);
    await expect(client.contacts.list().toArray({ max: -1 })).rejects.toThrow('`max` must be a number >= 0, got -1.');
  });

  it('handles an empty list', async () => {
    const { client, requests } = v2(pagedContacts(() => 0).respond);
    const page = await client.contacts.list();
    expect(page.data).toEqual([]);
    expect(page.hasNextPage()).toBe(false);
    expect(await client.contacts.list().toArray()).toEqual([]);
    expect(requests).toHaveLength(2);
  });

  it('treats a response without meta as the only page', async () => {
    const { client, requests } = v2(() => json(200, [contact(1), contact(2)]));
    const page = await client.contacts.list();
    expect(page.meta).toBeUndefined();
    expect(page.hasNextPage()).toBe(false);
    expect((await client.contacts.list().toArray()).map((c) => c.id)).toEqual([1, 2]);
    expect(requests).toHaveLength(2);
  });

  it('stops on an empty page even if meta claims more', async () => {
    const { client, requests } = v2(() =>
      json(200, { data: [], meta: { current_page: 1, per_page: 3, total: 9, last_page: 3 } }),
    );
    expect(await client.contacts.list().toArray()).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('follows a list that grows or shrinks mid-walk', async () => {
    let total = 6;
    const grow = v2(pagedContacts(() => total).respond);
    const seen: Array<string | number> = [];
    for await (const c of grow.client.contacts.list({ per_page: 3 })) {
      seen.push(c.id);
      if (c.id === 2) total = 9; // before page 2 is fetched: its meta says 3 pages
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    total = 9;
    const shrink = v2(pagedContacts(() => total).respond);
    const kept: Array<string | number> = [];
    for await (const c of shrink.client.contacts.list({ per_page: 3 })) {
      kept.push(c.id);
      if (c.id === 2) total = 4;
    }
    expect(kept).toEqual([1, 2, 3, 4]);
  });

  it('sends nothing until awaited or iterated, and fetches the first page once', async () => {
    const { client, requests } = v2(pagedContacts(() => 2).respond);
    const list = client.contacts.list();
    expect(list).toBeInstanceOf(PagePromise);
    expect(Object.prototype.toString.call(list)).toBe('[object PagePromise]');
    // A turn of the event loop: a request started on creation would have been made by now.
    await new Promise((resolve) => setImmediate(resolve));
    expect(requests).toHaveLength(0);
    const [a, b] = await Promise.all([list, list]);
    expect(a).toBe(b);
    expect(requests).toHaveLength(1);
  });

  it('rejects with the typed error on a bad meta', async () => {
    const { client } = v2(() => json(200, { data: [], meta: { current_page: 'one' } }));
    await expect(client.contacts.list()).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('pages Variant 1 lists from their envelope', async () => {
    const { fetch } = scriptedFetch((r) => {
      const page = Number(new URL(r.url).searchParams.get('page') ?? '1');
      return json(200, {
        success: true,
        data: [contact(page)],
        meta: { current_page: page, per_page: 1, total: 2, last_page: 2 },
      });
    });
    const client = new Variant1Client({ apiKey: 'k', baseUrl: BASE, fetch });
    expect((await client.contacts.list({ per_page: 1 }).toArray()).map((c) => c.id)).toEqual([1, 2]);
  });
});

describe('prefetch', () => {
  it('fetches ahead with bounded concurrency and yields in order', async () => {
    const server = pagedContacts(() => 30, { delayMs: 20 });
    const { client, requests } = v2(server.respond);
    const ids = (await client.contacts.list({ per_page: 3 }, { prefetch: 4 }).toArray()).map((c) => Number(c.id));
    expect(ids).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(requests).toHaveLength(10);
    expect(server.stats.maxInFlight).toBe(4);
  });

  it('stops fetching ahead when the walk stops early: what it fetched ahead is aborted, nothing more asked', async () => {
    const server = pagedContacts(() => 60, { delayMs: 10 });
    const { client, requests } = v2(server.respond);
    for await (const c of client.contacts.list({ per_page: 3 }, { prefetch: 2 })) {
      if (c.id === 4) break;
    }
    // Settled: every request it made has been answered, so none can lead to another.
    await vi.waitFor(() => expect(server.stats.inFlight).toBe(0), { timeout: 5000, interval: 5 });
    expect(requests.length).toBeLessThanOrEqual(4);
    // Pages 1 and 2 were read; the pages fetched ahead of the break (3 and 4) were given up.
    expect(requests.slice(2).every((request) => request.signal.aborted)).toBe(true);
  });

  it.each([
    [0, 1],
    [0, 2],
    [2, 1],
    [2, 2],
    [4, 2],
  ])(
    'with prefetch %i, an abort while page %i is read ends the walk there with AbortError',
    async (prefetch, abortOn) => {
      const { client } = v2(pagedContacts(() => 30).respond);
      const controller = new AbortController();
      const walked: number[] = [];
      const error = await (async () => {
        for await (const page of client.contacts
          .list({ per_page: 3 }, { prefetch, signal: controller.signal })
          .pages()) {
          walked.push(page.meta!.current_page);
          if (walked.length === abortOn) controller.abort(new Error('enough'));
        }
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AbortError);
      expect((error as AbortError).cause).toEqual(new Error('enough'));
      expect(walked).toEqual(Array.from({ length: abortOn }, (_, i) => i + 1));
    },
  );

  it('rejects a bad prefetch value when the list is used, like every other argument error', async () => {
    const { client } = v2(pagedContacts(() => 1).respond);
    let list: unknown;
    expect(() => {
      list = client.contacts.list({}, { prefetch: 1.5 });
    }).not.toThrow();
    await expect(list as Promise<unknown>).rejects.toThrow(
      new InvalidArgumentError('The `prefetch` option must be an integer from 0 to 32, got 1.5.'),
    );
    await expect(client.contacts.list({}, { prefetch: -1 }).toArray()).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});

describe('a server that ignores the page asked for', () => {
  /** Answers page 1 of 3 to every request, whatever its `page`. */
  const stuckOnFirstPage = () =>
    json(200, { data: [contact(1)], meta: { current_page: 1, per_page: 1, total: 3, last_page: 3 } });

  it.each([0, 2])(
    'ends the walk with ResponseValidationError instead of asking forever (prefetch %i)',
    async (prefetch) => {
      const { client, requests } = v2(stuckOnFirstPage);
      const error = await client.contacts
        .list({}, { prefetch })
        .toArray()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).message).toBe(
        'GET /contacts returned a body that is page 1 (meta.current_page), not page 2 asked for; the walk stops here instead of asking again',
      );
      expect((error as ResponseValidationError).issues).toEqual([
        { path: ['meta', 'current_page'], code: 'invalid_value', message: 'must be 2' },
      ]);
      // The first page, then the pages asked for at once: never more than the list has.
      expect(requests.map((r) => new URL(r.url).searchParams.get('page'))).toEqual(
        prefetch === 0 ? [null, '2'] : [null, '2', '3'],
      );
    },
  );

  it('fails getNextPage() the same way', async () => {
    const { client } = v2(stuckOnFirstPage);
    const first = await client.contacts.list();
    await expect(first.getNextPage()).rejects.toBeInstanceOf(ResponseValidationError);
  });
});
