// The replay's answer to a request it has no recording for: the closest recorded request it names.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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
