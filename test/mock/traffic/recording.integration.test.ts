import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Variant2Client } from '../../../src/index.js';
import { connectMock, startMockProxy, startMockReplay, type ReplayMiss } from '../../../src/mock/index.js';
import { startOtherService } from '../../helpers/proxied-service.js';

const KEY = 'sk_live_canary_0123456789abcdef';
const SECRET = 'whsec_canary_5f1e2d3c4b5a';
const REDACTION_KEY = 'test-redaction-key-0001';
/** One number in the four spellings an app may send it in. */
const SPELLINGS = ['+49 151 1234 5678', '004915112345678', '4915112345678', '+4915112345678'];
const FIXTURE = new URL('fixtures/recording-v1/', import.meta.url).pathname;

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** Runs an app's calls through a recording proxy to the other service; returns the folder, and what the app got. */
async function record(dir: string) {
  const service = await startOtherService();
  running.push(service);
  const proxy = await startMockProxy({ target: service.baseUrl, record: dir, redactionKey: REDACTION_KEY });
  running.push(proxy);
  const client = new Variant2Client({ apiKey: KEY, baseUrl: proxy.baseUrl, maxRetries: 0 });
  const got: unknown[] = [];
  // Raw, as an app in any language sends them: the client would write each number in E.164.
  for (const phone of SPELLINGS) {
    const answer = await fetch(`${proxy.baseUrl}/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', phone, tags: ['vip'] }),
    });
    got.push(((await answer.json()) as { data: unknown }).data);
  }
  for (const to of SPELLINGS.slice(0, 2))
    got.push(
      await client.messages
        .send({ to, messaging_account_id: 1, type: 'text', content: { body: 'Your code is 4711' } })
        .catch((error: Error) => error.name),
    );
  got.push(
    await client.webhooks.create({ url: 'https://app.example/hooks', events: ['message.delivered'], secret: SECRET }),
  );
  got.push(await client.contacts.list({ search: SPELLINGS[0] }));
  await proxy.settled();
  return { service, proxy, got };
}

function files(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.json'));
}

describe('recording the real service, redacted', () => {
  it('holds no key, no secret and no real number (canaries in four spellings), and one placeholder per number', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bizmsg-recording-'));
    await record(dir);
    const names = files(dir);
    expect(names).toHaveLength(8);
    expect(names[0]).toBe('000001-post-contacts.json');
    const everything = names.map((name) => readFileSync(join(dir, name), 'utf8')).join('\n');
    for (const canary of [
      KEY,
      'canary_0123456789abcdef',
      SECRET,
      '4915112345678',
      '15112345678',
      '151 1234 5678',
      '1234 5678',
    ])
      expect(everything).not.toContain(canary);
    // The message text is kept: only fields that hold numbers are redacted.
    expect(everything).toContain('Your code is 4711');
    const placeholders = new Set(everything.match(/999\d{10}/g));
    expect(placeholders.size).toBe(1);
    const first = JSON.parse(readFileSync(join(dir, names[0]!), 'utf8'));
    const placeholder = [...placeholders][0]!;
    expect(first).toMatchObject({
      bizmsg: 'recording',
      version: 1,
      seq: 1,
      variant: 2,
      request: {
        method: 'POST',
        path: '/contacts',
        query: {},
        body: { name: 'Ada', phone: `+${placeholder}`, tags: ['vip'] },
      },
      response: {
        status: 201,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'x-ratelimit-limit': '100',
          'x-ratelimit-remaining': '99',
          'x-ratelimit-reset': '1767225600',
        },
        body: {
          data: { id: 2, name: 'Ada', phone: `+${placeholder}`, tags: ['vip'], created_at: '2026-01-01T00:00:00Z' },
        },
      },
    });
    // Spelled as sent: bare digits stay bare.
    expect(JSON.parse(readFileSync(join(dir, names[2]!), 'utf8')).request.body.phone).toBe(placeholder);
    const webhook = JSON.parse(readFileSync(join(dir, names[6]!), 'utf8'));
    expect(webhook.request.body.secret).toBe('<redacted>');
    expect(webhook.response.body.data.secret).toBe('<redacted>');
    expect(JSON.parse(readFileSync(join(dir, names[7]!), 'utf8')).request.query).toEqual({ search: `+${placeholder}` });
  });

  it('replays offline through the SDK: the same answers, repeats in recorded order, the numbers mapped back, misses named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bizmsg-recording-'));
    const { service, got } = await record(dir);
    await service.close();
    const misses: ReplayMiss[] = [];
    const replay = await startMockReplay({
      recording: dir,
      redactionKey: REDACTION_KEY,
      onMiss: (miss) => misses.push(miss),
    });
    running.push(replay);
    const client = new Variant2Client({ apiKey: 'sk_other_key_for_replay', baseUrl: replay.baseUrl, maxRetries: 0 });
    // The app's own number in the answer, in the spelling the service gave (its digits), where the recording has its placeholder.
    const own = { ...(got[0] as object), phone: '+4915112345678' };
    expect(await client.contacts.create({ name: 'Ada', phone: SPELLINGS[0]!, tags: ['vip'] })).toEqual(own);
    expect(await client.contacts.create({ name: 'Ada', phone: '+49 (0)151 1234-5678', tags: ['vip'] })).toEqual(own);
    expect(await client.contacts.list({ search: SPELLINGS[0] })).toEqual(got[7]);
    expect(
      await client.webhooks.create({
        url: 'https://app.example/hooks',
        events: ['message.delivered'],
        secret: 'another',
      }),
    ).toEqual({ ...(got[6] as object), secret: '<redacted>' });
    // Identical requests in recorded order, the last one repeating (the client wrote both spellings alike).
    const send = (to: string) =>
      client.messages.send({ to, messaging_account_id: 1, type: 'text', content: { body: 'Your code is 4711' } });
    const ids = [await send(SPELLINGS[1]!), await send(SPELLINGS[0]!), await send(SPELLINGS[0]!)].map(
      (message) => message.id,
    );
    expect(ids).toEqual(['msg_1', 'msg_2', 'msg_2']);
    // Another number: the body the client sent, with another `to`.
    const recorded = JSON.parse(readFileSync(join(dir, '000005-post-messages-send.json'), 'utf8')).request.body;
    const raw = (to: string) =>
      fetch(`${replay.baseUrl}/messages/send`, {
        method: 'POST',
        headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
        body: JSON.stringify({ ...recorded, to }),
      }).then(async (answer) => [answer.status, await answer.json()]);
    const miss = await raw('+4915199999999');
    expect(miss).toEqual([
      501,
      {
        error: {
          code: 'NO_RECORDING',
          message: expect.stringContaining(
            'closest recorded request is POST /messages/send (000005-post-messages-send.json), which differs in body.to',
          ),
          details: { closest: 'POST /messages/send (000005-post-messages-send.json)', differing: ['body.to'] },
        },
      },
    ]);
    expect(misses).toEqual([
      {
        request: 'POST /messages/send',
        closest: 'POST /messages/send (000005-post-messages-send.json)',
        differing: ['body.to'],
      },
    ]);
    const journal = await connectMock(replay.baseUrl).requests({ status: '501' });
    expect(journal.map((entry) => [entry.path, entry.code])).toEqual([['/messages/send', 'NO_RECORDING']]);
    expect(await connectMock(replay.baseUrl).health()).toMatchObject({ mode: 'replay', variant: 2, recording: dir });
    expect((await fetch(`${replay.origin}/_bizmsg/drift`)).status).toBe(501);
  });

  it('without the recording key, placeholders match only themselves', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bizmsg-recording-'));
    const { service } = await record(dir);
    await service.close();
    const placeholder = JSON.parse(readFileSync(join(dir, files(dir)[0]!), 'utf8')).request.body.phone as string;
    const replay = await startMockReplay({ recording: dir });
    running.push(replay);
    const create = (phone: string) =>
      fetch(`${replay.baseUrl}/contacts`, {
        method: 'POST',
        headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Ada', phone, tags: ['vip'] }),
      }).then((answer) => answer.status);
    expect(await create(SPELLINGS[0]!)).toBe(501);
    expect(await create(placeholder)).toBe(201);
  });

  it('replays a recording made by an earlier version (format 1, a field it does not know), and refuses a later one naming it', async () => {
    const replay = await startMockReplay({ recording: FIXTURE });
    running.push(replay);
    const answer = await fetch(`${replay.baseUrl}/account/me`, { headers: { 'x-api-key': 'any' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-ratelimit-limit')).toBe('60');
    expect(await answer.json()).toEqual({ success: true, data: { id: 1, name: 'Acme' } });
    const missing = await fetch(`${replay.baseUrl}/contacts/9`, { headers: { 'x-api-key': 'any' } });
    expect(missing.status).toBe(501);
    expect(await missing.json()).toMatchObject({
      success: false,
      error: { code: 'NO_RECORDING', details: { differing: ['path'] } },
    });
    await expect(
      startMockReplay({ recording: new URL('fixtures/recording-v9/', import.meta.url).pathname }),
    ).rejects.toThrow(
      '000001-get-account-me.json was recorded by a later bizmsg (format version 9; this one reads up to 1): update bizmsg.',
    );
    await expect(startMockReplay({ recording: tmpdir() + '/nothing-here-31' })).rejects.toThrow('is not a folder');
  });
});
