// The replay's answer to a request it has no recording for: the closest recorded request it names.
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Variant2Client, type ApiError } from '../../../src/index.js';
import { startMockReplay, type MockReplay } from '../../../src/mock/index.js';

const running: MockReplay[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** A recording of `requests` (method, path, body), each answered 200, in this order. */
function recordingOf(requests: ReadonlyArray<readonly [string, string, unknown?]>): string {
  const dir = mkdtempSync(join(tmpdir(), 'bizmsg-closest-'));
  requests.forEach(([method, path, body], index) => {
    const seq = index + 1;
    const exchange = {
      bizmsg: 'recording',
      version: 1,
      seq,
      at: '2026-11-26T10:00:00.000Z',
      variant: 2,
      request: { method, path, query: {}, body: body ?? null },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: { data: { seq } } },
    };
    const slug = `${method}-${path}`.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    writeFileSync(join(dir, `${String(seq).padStart(6, '0')}-${slug}.json`), JSON.stringify(exchange));
  });
  return dir;
}

async function missOf(dir: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const replay = await startMockReplay({ recording: dir });
  running.push(replay);
  const answer = await fetch(`${replay.baseUrl}${path}`, {
    method,
    headers: { authorization: 'Bearer any', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(answer.status).toBe(501);
  return ((await answer.json()) as { error: { details: unknown } }).error.details;
}

describe('a replay miss names the closest recorded request', () => {
  it('of the same method, with the most path segments in common, then a path as long, then the fewest differing fields', async () => {
    const dir = recordingOf([
      ['GET', '/contacts'],
      ['GET', '/webhooks'],
      ['GET', '/conversations'],
      ['GET', '/conversations/1'],
      ['POST', '/conversations/2'],
    ]);
    expect(await missOf(dir, 'GET', '/conversations/2')).toEqual({
      closest: 'GET /conversations/1 (000004-get-conversations-1.json)',
      differing: ['path'],
    });
    expect(await missOf(dir, 'GET', '/conversations/2/messages')).toEqual({
      closest: 'GET /conversations/1 (000004-get-conversations-1.json)',
      differing: ['path'],
    });
    expect(await missOf(dir, 'DELETE', '/webhooks')).toEqual({
      closest: 'GET /webhooks (000002-get-webhooks.json)',
      differing: ['method'],
    });
    // Then the fewest differing fields, the earliest of equals.
    const sends = recordingOf([
      ['POST', '/messages/send', { to: '+9990000000001', type: 'text', content: { body: 'a' } }],
      ['POST', '/messages/send', { to: '+9990000000002', type: 'text', content: { body: 'b' } }],
      ['POST', '/contacts', { to: '+9990000000002', type: 'text', content: { body: 'b' } }],
    ]);
    expect(
      await missOf(sends, 'POST', '/messages/send', { to: '+9990000000002', type: 'text', content: { body: 'c' } }),
    ).toEqual({
      closest: 'POST /messages/send (000002-post-messages-send.json)',
      differing: ['body.content.body'],
    });
    expect(await missOf(sends, 'POST', '/messages/send', { to: '+9990000000003' })).toEqual({
      closest: 'POST /messages/send (000001-post-messages-send.json)',
      differing: ['body.to', 'body.type', 'body.content.body'],
    });
  });
});

describe('a recording holds only what a replay may answer (it may arrive by pull request)', () => {
  /** A recording of one GET /account/me whose answer is `response`. */
  function answering(response: Record<string, unknown>): string {
    const dir = mkdtempSync(join(tmpdir(), 'bizmsg-hostile-'));
    const exchange = {
      bizmsg: 'recording',
      version: 1,
      seq: 1,
      at: '2026-11-26T10:00:00.000Z',
      variant: 2,
      request: { method: 'GET', path: '/account/me', query: {}, body: null },
      response,
    };
    writeFileSync(join(dir, '000001-get-account-me.json'), JSON.stringify(exchange));
    return dir;
  }

  it('serves the allowlisted headers only, framed by the replay itself', async () => {
    const dir = answering({
      status: 200,
      headers: {
        'content-type': 'application/json',
        'x-ratelimit-limit': '60',
        'Set-Cookie': 'session=stolen; Domain=127.0.0.1; Path=/',
        location: 'https://evil.example/',
        refresh: '0; url=https://evil.example/',
        'access-control-allow-origin': '*',
        'access-control-allow-credentials': 'true',
        'content-length': '99999',
        'transfer-encoding': 'chunked',
        connection: 'close',
        'retry-after': '1\r\nset-cookie: injected=1',
      },
      body: { data: { id: 1 } },
    });
    const replay = await startMockReplay({ recording: dir });
    running.push(replay);
    const answer = await fetch(`${replay.baseUrl}/account/me`, { headers: { authorization: 'Bearer any' } });
    const body = await answer.text();
    expect([answer.status, body]).toEqual([200, '{"data":{"id":1}}']);
    const served = [...answer.headers.keys()].filter((name) => !['date', 'keep-alive', 'connection'].includes(name));
    expect(served.sort()).toEqual(['content-length', 'content-type', 'x-ratelimit-limit']);
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
  });

  it.each([
    [{ status: 101, headers: {}, body: null }, 'answers with status 101: a replay answers from 200 to 599'],
    [{ status: 700, headers: {}, body: null }, 'answers with status 700: a replay answers from 200 to 599'],
    [{ status: 204, headers: {}, body: { data: 1 } }, 'answers 204 with a body, which that status never carries'],
    [{ status: 304, headers: {}, body: null, text: 'x' }, 'answers 304 with a body, which that status never carries'],
  ])('refuses a file that answers %j at start, naming it', async (response, problem) => {
    await expect(startMockReplay({ recording: answering(response) })).rejects.toThrow(
      `000001-get-account-me.json ${problem}.`,
    );
  });

  it('serves a 204 without a body', async () => {
    const replay = await startMockReplay({ recording: answering({ status: 204, headers: {}, body: null }) });
    running.push(replay);
    const answer = await fetch(`${replay.baseUrl}/account/me`, { headers: { authorization: 'Bearer any' } });
    expect([answer.status, await answer.text()]).toEqual([204, '']);
  });

  it('refuses a file that is a link, to a recording outside the folder or inside it, naming it', async () => {
    const outside = answering({ status: 200, headers: {}, body: { data: { secret: 'outside' } } });
    const dir = mkdtempSync(join(tmpdir(), 'bizmsg-linked-'));
    symlinkSync(join(outside, '000001-get-account-me.json'), join(dir, '000001-get-account-me.json'));
    await expect(startMockReplay({ recording: dir })).rejects.toThrow(
      '000001-get-account-me.json of the recording is a link or lies outside the folder: a recording holds its own files.',
    );
    const inside = answering({ status: 200, headers: {}, body: null });
    symlinkSync(join(inside, '000001-get-account-me.json'), join(inside, '000002-get-account-me.json'));
    await expect(startMockReplay({ recording: inside })).rejects.toThrow(
      '000002-get-account-me.json of the recording is a link',
    );
  });
});

describe('a miss, as a client reads it', () => {
  it('is a 501 NO_RECORDING that a POST reports as not processed, and is not retried', async () => {
    const replay = await startMockReplay({ recording: recordingOf([['GET', '/contacts']]) });
    running.push(replay);
    const client = new Variant2Client({ apiKey: 'sk_test_any', baseUrl: replay.baseUrl, logLevel: 'off' });
    const error = (await client.messages
      .sendText({ to: '+4915112345678', messaging_account_id: 1, body: 'hi' })
      .catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.code, error.mayHaveBeenProcessed]).toEqual([501, 'NO_RECORDING', false]);
    expect(error.message).not.toContain('may have been processed');
    expect(replay.requests()).toHaveLength(1);
  });
});
