import { describe, expect, it, vi } from 'vitest';
import { InternalError, type ContactSyncResult, type Variant2Client } from '../../src/index.js';
import { digitsOf, racingFetch, spell, useSyncEmulator } from './fixtures.js';

// contacts.sync under faults the emulator injects (a 500, a 429, a timeout, an answer lost after the
// service processed the request) and when stopped half-way: what each row is reported as, and the
// account after it: never a second contact, nothing written twice that could make one.

const emulator = useSyncEmulator(2);
const client = (options = {}) => emulator.client(options) as Variant2Client;

const rowsOf = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => ({ phone: spell(digitsOf(from + i), i), name: `Customer ${from + i}` }));

async function resultsOf(run: AsyncIterable<ContactSyncResult> | { results(): AsyncIterable<ContactSyncResult> }) {
  const results: ContactSyncResult[] = [];
  for await (const result of 'results' in run ? run.results() : run) results.push(result);
  return results.sort((a, b) => a.row - b.row);
}

describe('contacts.sync under faults', () => {
  it('a 500 on a create: the row fails (the account read again does not show it), nothing is created twice, the next sync creates it', async () => {
    emulator.server.mock.inject({ route: 'POST /contacts', status: 500, times: 1 });
    const run = client().contacts.sync(rowsOf(5), { concurrency: 1 });
    const results = await resultsOf(run);
    expect(await run).toMatchObject({ total: 5, created: 4, failed: 1 });
    expect(results[0]).toEqual({
      row: 1,
      phone: `+${digitsOf(0)}`,
      status: 'failed',
      error: { code: 'INTERNAL_ERROR', message: expect.stringContaining('may have been processed') },
    });
    // The account read twice: once for the list, once to settle the create it could not tell.
    expect(emulator.forwarder.count('GET /contacts')).toBe(2);
    expect(emulator.forwarder.count('POST /contacts')).toBe(5);
    expect(emulator.contactsByNumber().size).toBe(4);

    emulator.forwarder.reset();
    expect(await client().contacts.sync(rowsOf(5))).toMatchObject({ created: 1, unchanged: 4, failed: 0 });
    expect(emulator.forwarder.count('POST /contacts')).toBe(1);
    expect(emulator.contactsByNumber().size).toBe(5);
  });

  it('an answer lost after the service created the contact: found when the account is read again, reported created, never sent again', async () => {
    let lose = 1;
    const fetch = async (input: Request | string | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const response = await globalThis.fetch(request);
      if (request.method === 'POST' && lose-- > 0) throw new TypeError('fetch failed: the connection was reset');
      return response;
    };
    const run = client({ fetch }).contacts.sync(rowsOf(3), { concurrency: 1 });
    const results = await resultsOf(run);
    expect(await run).toMatchObject({ created: 3, failed: 0 });
    const stored = emulator.contactsByNumber();
    expect(results.map((r) => [r.status, r.contactId])).toEqual(
      [0, 1, 2].map((i) => ['created', stored.get(digitsOf(i))!.id]),
    );
    expect(emulator.forwarder.count('POST /contacts')).toBe(3);
    expect(stored.size).toBe(3);
  });

  it('a timeout on a create the service processed: the same; on one it did not: failed, and never sent again', async () => {
    // The first create is answered after the client gave up (the emulator creates it first).
    const slow = async (input: Request | string | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const response = await globalThis.fetch(request.clone());
      if (request.method === 'POST' && slowCreates-- > 0)
        await new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
      return response;
    };
    let slowCreates = 1;
    const run = client({ fetch: slow, timeout: 300 }).contacts.sync(rowsOf(2), { concurrency: 1 });
    expect(await run).toMatchObject({ created: 2, failed: 0 });
    expect(emulator.forwarder.count('POST /contacts')).toBe(2);

    // Held by the emulator 3 s before it runs: the account read again at once does not show it.
    emulator.forwarder.reset();
    emulator.server.mock.inject({ route: 'POST /contacts', delay: 3000, times: 1 });
    const held = client({ timeout: 300 }).contacts.sync(rowsOf(1, 10));
    const results = await resultsOf(held);
    expect(results).toEqual([
      {
        row: 1,
        phone: `+${digitsOf(10)}`,
        status: 'failed',
        error: { code: 'TimeoutError', message: expect.stringContaining('may have been processed') },
      },
    ]);
    expect(emulator.forwarder.count('POST /contacts')).toBe(1);
    // Once the emulator ran it, the next sync finds it: one contact, unchanged.
    await vi.waitFor(() => expect(emulator.contactsByNumber().has(digitsOf(10))).toBe(true), {
      timeout: 15_000,
      interval: 50,
    });
    expect(await client().contacts.sync(rowsOf(1, 10))).toMatchObject({ unchanged: 1, created: 0 });
    expect(emulator.forwarder.count('POST /contacts')).toBe(1);
    expect(emulator.contactsByNumber().size).toBe(3);
  });

  it('500s on updates past the client retries: the account read again, updated once it takes', async () => {
    const c = client();
    await c.contacts.sync(rowsOf(3));
    emulator.server.mock.inject({ route: 'PUT /contacts/:id', status: 500, times: 3 });
    emulator.forwarder.reset();
    const changed = rowsOf(3).map((row) => ({ ...row, name: `${row.name} Jr.` }));
    expect(await c.contacts.sync(changed, { concurrency: 1 })).toMatchObject({ updated: 3, failed: 0 });
    // 3 attempts of the first update (the client retries a PUT twice), 1 for each other; then the first again.
    expect(emulator.forwarder.count(/^PUT /)).toBe(6);
    expect(emulator.forwarder.count('GET /contacts')).toBe(2);
    expect([...emulator.contactsByNumber().values()].map((c) => c.name)).toEqual(changed.map((r) => r.name));
  });

  it('a 500 on every read of the account: the run rejects with it and writes nothing', async () => {
    emulator.server.mock.inject({ route: 'GET /contacts', status: 500, times: 3 });
    const run = client().contacts.sync(rowsOf(3));
    await expect(run).rejects.toBeInstanceOf(InternalError);
    await expect(resultsOf(run)).rejects.toBeInstanceOf(InternalError);
    expect(emulator.forwarder.count(/^(POST|PUT) /)).toBe(0);
  });

  it('429s mid-sync past the client retries are waited out: every row written once', { timeout: 20_000 }, async () => {
    emulator.server.mock.inject({ route: 'POST /contacts', status: 429, times: 4 });
    const run = client().contacts.sync(rowsOf(3), { concurrency: 1 });
    expect(await run).toMatchObject({ created: 3, failed: 0 });
    // 4 refused, 3 taken.
    expect(emulator.forwarder.count('POST /contacts')).toBe(7);
    expect(emulator.contactsByNumber().size).toBe(3);
  });

  it('a create refused because another writer took the number since the read becomes an update of that contact', async () => {
    const c = client();
    // After the account was read: another writer creates the number first.
    const racing = racingFetch(() => c.contacts.create({ phone: digitsOf(0), name: 'Other writer' }));
    const run = client({ fetch: racing }).contacts.sync(rowsOf(2), { concurrency: 1 });
    const results = await resultsOf(run);
    const stored = emulator.contactsByNumber();
    expect(results).toEqual([
      { row: 1, phone: `+${digitsOf(0)}`, status: 'updated', contactId: stored.get(digitsOf(0))!.id },
      { row: 2, phone: `+${digitsOf(1)}`, status: 'created', contactId: stored.get(digitsOf(1))!.id },
    ]);
    expect(stored.size).toBe(2);
    expect(stored.get(digitsOf(0))!.name).toBe('Customer 0');
  });
});

describe('contacts.sync stopped', () => {
  it('an abort mid-run: writes in flight finish and are reported, nothing after; the next sync writes the rest', async () => {
    const controller = new AbortController();
    const c = client();
    const run = c.contacts.sync(rowsOf(200), { concurrency: 4, signal: controller.signal });
    let seen = 0;
    const results: ContactSyncResult[] = [];
    for await (const result of run.results()) {
      results.push(result);
      if (++seen === 50) controller.abort();
    }
    const report = await run;
    expect(report.aborted).toBe(true);
    expect(report.created).toBe(results.length);
    expect(report.created).toBeGreaterThanOrEqual(50);
    expect(report.created).toBeLessThan(200);
    // Each write reported is in the account; nothing else is.
    expect(emulator.contactsByNumber().size).toBe(report.created);
    expect(emulator.forwarder.count('POST /contacts')).toBe(report.created);

    expect(await c.contacts.sync(rowsOf(200))).toMatchObject({
      created: 200 - report.created,
      unchanged: report.created,
      aborted: false,
    });
    expect(emulator.contactsByNumber().size).toBe(200);
  });

  it('an abort while the account is read: nothing is written', async () => {
    const c = client();
    await c.contacts.sync(rowsOf(300));
    emulator.forwarder.reset();
    emulator.server.mock.inject({ route: 'GET /contacts', delay: 500, times: 1 });
    const controller = new AbortController();
    // Aborted once the read has left (the emulator holds it 500 ms), not at a guessed moment.
    const reading = (input: Request | string | URL, init?: RequestInit) => {
      const answer = globalThis.fetch(input, init);
      setImmediate(() => controller.abort());
      return answer;
    };
    const report = await client({ fetch: reading }).contacts.sync(rowsOf(400), { signal: controller.signal });
    expect(report).toEqual({ total: 400, created: 0, updated: 0, unchanged: 0, failed: 0, merged: 0, aborted: true });
    expect(emulator.forwarder.count(/^(POST|PUT) /)).toBe(0);
  });

  it('the service out of reach: the run rejects with the connection error', async () => {
    const c = emulator.client({ baseUrl: 'http://127.0.0.1:9/api/v1', maxRetries: 0 }) as Variant2Client;
    await expect(c.contacts.sync(rowsOf(2))).rejects.toMatchObject({
      name: 'ConnectionError',
      mayHaveBeenProcessed: false,
    });
  });
});
