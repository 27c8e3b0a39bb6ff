// How a client reads an answer that differs from what bizmsg expects: on where it can give what
// the method promises, failing (ResponseValidationError, after the drift is reported) only where not.
import { describe, expect, it, vi } from 'vitest';
import {
  InvalidArgumentError,
  ResponseValidationError,
  Variant1Client,
  Variant2Client,
  type ClientOptions,
  type DriftReport,
} from '../../../src/index.js';
import { json, scriptedFetch, type Step } from '../../helpers/scripted-fetch.js';

const BASE = 'https://api.bizmsg.test/api/v1';
const KEY = 'sk_live_tolerant_SECRET_31';

function client<C>(Client: new (options: ClientOptions) => C, step: Step, options: Partial<ClientOptions> = {}) {
  const reports: DriftReport[] = [];
  const { fetch } = scriptedFetch(step);
  const made = new Client({
    apiKey: KEY,
    baseUrl: BASE,
    fetch,
    rateLimit: false,
    onDrift: (r) => void reports.push(r),
    ...options,
  });
  return { client: made, reports };
}

async function failure(promise: Promise<unknown>): Promise<ResponseValidationError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ResponseValidationError);
  return error as ResponseValidationError;
}

describe('a client reading an answer that differs from what bizmsg expects', () => {
  it('fails a send without a message id, saying it may have been processed, after reporting the drift', async () => {
    const { client: v2, reports } = client(Variant2Client, json(200, { status: 'queued', wamid: 'w1' }));
    const error = await failure(v2.messages.sendText({ to: '+4915112345678', messaging_account_id: 1, body: 'Hi' }));
    expect(error.mayHaveBeenProcessed).toBe(true);
    expect(error.message).toBe(
      'POST /messages/send returned a body that does not match the expected shape: Expected a message id in `id` or `message_id` (HTTP 200; the request may have been processed; it was not retried to avoid a duplicate)',
    );
    expect(reports).toEqual([
      {
        source: 'response',
        operation: 'POST /messages/send',
        missing: [
          'direction',
          'messaging_account_id',
          'to',
          'from',
          'type',
          'content',
          'conversation_id',
          'created_at',
        ],
        unexpected: ['wamid'],
        mismatched: [],
      },
    ]);
  });

  it('fails a fetched record without its id, or with a shown field of another type; not having been processed', async () => {
    const { client: v1, reports } = client(
      Variant1Client,
      json(200, { success: true, data: { name: 'Ada', phone: '49' } }),
    );
    const missing = await failure(v1.contacts.get(7));
    expect([missing.mayHaveBeenProcessed, missing.issues]).toEqual([
      false,
      [{ path: ['data', 'id'], code: 'invalid_union', message: 'is required' }],
    ]);
    expect(reports[0]!.missing).toEqual(['data.id', 'data.created_at', 'data.updated_at']);
    const { client: other } = client(Variant1Client, json(200, { success: true, data: { id: 7, phone: {} } }));
    expect((await failure(other.contacts.get(7))).message).toBe(
      'GET /contacts/7 returned a body that does not match the expected shape at data.phone: must be a string',
    );
  });

  it('fails a send whose message id is empty: it names no message', async () => {
    const { client: v2 } = client(Variant2Client, json(200, { data: { id: '', status: 'queued' } }));
    const error = await failure(v2.messages.sendText({ to: '+4915112345678', messaging_account_id: 1, body: 'Hi' }));
    expect([error.mayHaveBeenProcessed, error.issues[0]!.message]).toEqual([
      true,
      'Expected a message id in `id` or `message_id`',
    ]);
  });

  it('gives a number sent as text, and text sent as a number, in the type expected where nothing is lost, reporting it', async () => {
    const { client: v2, reports } = client(Variant2Client, (request) => {
      if (request.url.endsWith('/messages/send')) return json(200, { data: { id: 77, status: 'queued' } });
      if (request.url.includes('/contacts/')) return json(200, { data: { id: 7, phone: 4915112345678, name: 42 } });
      return json(200, {
        data: [{ id: 1, phone: '4915112345678', status: 3, delivered_at: 1764160000 }],
        meta: { current_page: '1', per_page: '20', total: '1', last_page: 1 },
      });
    });
    const sent = await v2.messages.sendText({ to: '+4915112345678', messaging_account_id: 1, body: 'Hi' });
    const contact = await v2.contacts.get(7);
    const page = await v2.conversations.list();
    // A required field is given in its type; an optional one of another type is left out, as ever.
    expect([sent.id, contact.phone, contact.name]).toEqual(['77', '4915112345678', undefined]);
    expect([page.data[0]!.status, page.meta]).toEqual(['3', { current_page: 1, per_page: 20, total: 1, last_page: 1 }]);
    expect(reports.map((r) => r.mismatched.map(({ path, received }) => `${path}: ${received}`))).toEqual([
      ['data.id: number'],
      ['data.name: number', 'data.phone: number'],
      ['data[].status: number', 'meta.current_page: string', 'meta.per_page: string', 'meta.total: string'],
    ]);
  });

  it('fails a list without its items, and a page whose meta cannot be read (a walk would stop short)', async () => {
    const { client: v1 } = client(Variant1Client, json(200, { success: true, data: { contacts: [] } }));
    expect((await failure(v1.contacts.list())).message).toBe(
      'GET /contacts returned a body that does not match the expected shape at data: must be an array',
    );
    const meta = { current_page: 'first', per_page: 20, total: 1, last_page: 1 };
    const { client: paged, reports } = client(Variant1Client, json(200, { success: true, data: [], meta }));
    await failure(paged.contacts.list());
    expect(reports[0]!.mismatched).toEqual([{ path: 'meta.current_page', expected: 'integer', received: 'string' }]);
    // A page number that is no whole number cannot be walked from either.
    const half = { current_page: 1, per_page: 20, total: 1, last_page: 1.5 };
    const { client: fractional, reports: fractionReports } = client(
      Variant1Client,
      json(200, { success: true, data: [], meta: half }),
    );
    expect((await failure(fractional.contacts.list())).message).toBe(
      'GET /contacts returned a body that does not match the expected shape at meta.last_page: must be an integer',
    );
    expect(fractionReports[0]!.mismatched).toEqual([
      { path: 'meta.last_page', expected: 'integer', received: 'number' },
    ]);
  });

  it('leaves out a guessed number that should be whole and is not, reporting it (zod reads any number there: int())', async () => {
    const campaign = {
      id: 7,
      name: 'Promo',
      messaging_account_id: 1,
      template_name: 'promo',
      segment_id: 2,
      scheduled_at: '2026-11-28T10:00:00Z',
      status: 'completed',
      sent_count: 2.5,
      created_at: '2026-11-28T09:00:00Z',
    };
    const { client: v2, reports } = client(Variant2Client, json(200, [campaign]));
    const page = await v2.campaigns.list();
    const { sent_count: _left, ...kept } = campaign;
    expect(page.data).toEqual([kept]);
    expect(reports[0]!.mismatched).toEqual([{ path: '[].sent_count', expected: 'integer', received: 'number' }]);
  });

  it('leaves out a guessed field of another type, also in each item of a list, and keeps the unknown ones', async () => {
    const contact = {
      id: 1,
      phone: '4915112345678',
      tags: 'a,b',
      email: 5,
      vip: true,
      created_at: 'x',
      updated_at: 'y',
    };
    const { client: v2, reports } = client(Variant2Client, json(200, [contact, { ...contact, id: 2, tags: ['a'] }]));
    const page = await v2.contacts.list();
    expect(page.data).toEqual([
      { id: 1, phone: '4915112345678', vip: true, created_at: 'x', updated_at: 'y' },
      { id: 2, phone: '4915112345678', tags: ['a'], vip: true, created_at: 'x', updated_at: 'y' },
    ]);
    expect(page.meta).toBeUndefined();
    expect(reports).toEqual([
      {
        source: 'response',
        operation: 'GET /contacts',
        missing: [],
        unexpected: ['[].vip'],
        mismatched: [
          { path: '[].email', expected: 'string | null', received: 'number' },
          { path: '[].tags', expected: 'array', received: 'string' },
        ],
      },
    ]);
  });

  it('reports nothing, and reads as before, when the answer is what bizmsg expects', async () => {
    const contact = { id: 1, phone: '4915112345678', created_at: 'x', updated_at: 'y' };
    const { client: v2, reports } = client(Variant2Client, json(200, { data: contact }));
    expect(await v2.contacts.get(1)).toEqual(contact);
    expect(reports).toEqual([]);
  });

  it('without onDrift and below warn, skips the check and still leaves out what does not fit', async () => {
    const warn = vi.fn();
    const logger = { debug: vi.fn(), info: vi.fn(), warn, error: vi.fn() };
    const answer = json(200, { data: { id: 1, phone: '49', tags: 'a' } });
    const { client: quiet } = client(Variant2Client, answer, { onDrift: undefined, logLevel: 'error', logger });
    expect(await quiet.contacts.get(1)).toEqual({ id: 1, phone: '49' });
    expect(warn).not.toHaveBeenCalled();
  });

  it('does not fail the call when onDrift throws: the error goes to the log', async () => {
    const lines: string[] = [];
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: (m: string) => void lines.push(m) };
    const { client: v2 } = client(Variant2Client, json(200, { data: { id: 1, phone: '49', tags: 'a' } }), {
      logger,
      onDrift: () => {
        throw new Error('my handler broke');
      },
    });
    expect(await v2.contacts.get(1)).toEqual({ id: 1, phone: '49' });
    expect(lines).toEqual(['bizmsg: onDrift threw: Error: my handler broke']);
  });

  it('refuses an onDrift that is not a function', () => {
    expect(() => new Variant2Client({ apiKey: KEY, baseUrl: BASE, onDrift: 'log' as never })).toThrow(
      new InvalidArgumentError('The `onDrift` option must be a function, got "log".'),
    );
  });
});
