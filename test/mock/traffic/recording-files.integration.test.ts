// The files a recording proxy writes, as a repository that commits them meets them: values kept
// byte for byte where they are no phone number, files about the size of their exchange however
// deep its nesting, a folder bounded in size, and a proxy that answers others while it redacts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockProxy, startMockReplay } from '../../../src/mock/index.js';

const KEY = 'sk_live_files_0123456789abcdef';
const REDACTION_KEY = 'files-redaction-key-0001';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** A service that answers every request with `answer(body)` as JSON (its own body given back by default). */
async function startEcho(answer: (sent: string) => unknown = (sent) => ({ data: sent })) {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.stringify(answer(Buffer.concat(chunks).toString()));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const service = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  running.push(service);
  return service;
}

async function proxyTo(
  target: string,
  dir: string,
  options: { recordLimit?: number; onRecordingFull?: (limit: number) => void } = {},
) {
  const proxy = await startMockProxy({ target, record: dir, redactionKey: REDACTION_KEY, ...options });
  running.push(proxy);
  return proxy;
}

const post = (base: string, path: string, body: string) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body,
  }).then(async (answer) => [answer.status, await answer.text()] as const);

const recorded = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.json'));

describe('recording files', () => {
  it('keep values that are no phone number byte for byte, through record and replay: epoch times, ids and counts in strings', async () => {
    const kept = {
      timestamps: { sent: '1795875464', delivered: '1795875466000' },
      external_id: '123456789012345',
      order: '00491512345678',
      count: '42424242',
      big: 12345678901234,
    };
    const service = await startEcho(() => ({ data: { id: 'msg_1', ...kept } }));
    const dir = mkdtempSync(join(tmpdir(), 'bizmsg-kept-'));
    const proxy = await proxyTo(service.baseUrl, dir);
    const direct = await post(proxy.baseUrl, '/messages/send', '{"to":"+4915112345678","body":"hi"}');
    await proxy.settled();
    const file = JSON.parse(readFileSync(join(dir, recorded(dir)[0]!), 'utf8')) as {
      response: { body: { data: unknown } };
    };
    expect(file.response.body.data).toEqual({ id: 'msg_1', ...kept });
    await service.close();
    const replay = await startMockReplay({ recording: dir, redactionKey: REDACTION_KEY });
    running.push(replay);
    const replayed = await post(replay.baseUrl, '/messages/send', '{"to":"+4915112345678","body":"hi"}');
    expect(replayed).toEqual(direct);
  });

  it('are about the size of their exchange, however deep its nesting: 1,500 levels of arrays', async () => {
    const service = await startEcho((sent) => JSON.parse(sent) as unknown);
    const dir = mkdtempSync(join(tmpdir(), 'bizmsg-deep-'));
    const proxy = await proxyTo(service.baseUrl, dir);
    const deep = `${'['.repeat(1500)}${']'.repeat(1500)}`;
    expect((await post(proxy.baseUrl, '/contacts', deep))[0]).toBe(200);
    await proxy.settled();
    // The request and its echo, 3 KB each: indented to a fixed depth, the file is a few KB (was 4.5 MB).
    const size = statSync(join(dir, recorded(dir)[0]!)).size;
    expect(size).toBeLessThan(16_384);
    expect(JSON.parse(readFileSync(join(dir, recorded(dir)[0]!), 'utf8')).request.body).toEqual(JSON.parse(deep));
  });

  it('stop at the folder cap: past it, exchanges are counted and not written, and the proxy says so once', async () => {
    const service = await startEcho(() => ({ data: { ok: true } }));
    const dir = mkdtempSync(join(tmpdir(), 'bizmsg-capped-'));
    const full: number[] = [];
    const proxy = await proxyTo(service.baseUrl, dir, {
      recordLimit: 1_048_576,
      onRecordingFull: (limit) => full.push(limit),
    });
    const note = 'n'.repeat(200_000);
    for (let i = 0; i < 8; i++)
      expect((await post(proxy.baseUrl, '/contacts', JSON.stringify({ name: `c${i}`, note })))[0]).toBe(200);
    await proxy.settled();
    const bytes = recorded(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
    expect(bytes).toBeLessThanOrEqual(1_048_576);
    expect(recorded(dir)).toHaveLength(5);
    expect([proxy.unrecorded, full]).toEqual([3, [1_048_576]]);
    // A proxy that records into it again counts what is there: nothing more is written.
    await proxy.close();
    const again = await proxyTo(service.baseUrl, dir, { recordLimit: 1_048_576 });
    await post(again.baseUrl, '/contacts', JSON.stringify({ name: 'again', note }));
    await again.settled();
    expect([recorded(dir).length, again.unrecorded]).toEqual([5, 1]);
  });

  it('refuse a recordLimit under 1 MiB, and a target that carries a user name or password, without showing it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bizmsg-refused-'));
    await expect(
      startMockProxy({ target: 'http://127.0.0.1:9/api/v1', record: dir, recordLimit: 1000 }),
    ).rejects.toThrow('The `recordLimit` option must be a number of bytes of at least 1 MiB (1048576), got 1000.');
    const refused = await startMockProxy({ target: 'https://ada:HUNTER2-CANARY@api.example.com/api/v1' }).catch(
      (e: Error) => e,
    );
    expect((refused as Error).message).toBe(
      'The target must not carry a user name or password: the proxy passes the API key of each request on, and would show the URL.',
    );
  });

  it('answer /_bizmsg/health in time while a 3.8 MB body of 280,000 numbers is redacted (it takes seconds)', async () => {
    const service = await startEcho(() => ({ data: { ok: true } }));
    const dir = mkdtempSync(join(tmpdir(), 'bizmsg-big-'));
    const proxy = await proxyTo(service.baseUrl, dir);
    const numbers = Array.from({ length: 280_000 }, (_, i) => `+4915${String(10_000_000 + i)}`).join(' ');
    const sent = post(proxy.baseUrl, '/contacts', JSON.stringify({ name: 'Big', note: numbers }));
    let settled = false;
    const done = sent.then(() => proxy.settled()).then(() => (settled = true));
    let slowest = 0;
    let asked = 0;
    while (!settled) {
      const started = performance.now();
      expect((await fetch(`${proxy.origin}/_bizmsg/health`)).status).toBe(200);
      slowest = Math.max(slowest, performance.now() - started);
      asked += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await done;
    // Redaction yields every 8 ms: health waits a few slices (15 ms measured alone). Held whole, as
    // before, it waited for all of it (1.7 s for 230,000 numbers); 1 s holds on a loaded machine.
    expect(asked).toBeGreaterThan(1);
    expect(slowest).toBeLessThan(1000);
    expect(readFileSync(join(dir, recorded(dir)[0]!), 'utf8')).not.toContain('+4915');
  });
});
