import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Variant2Client } from '../../../src/index.js';
import { RecordedExchangeSchema } from '../../../src/mock/traffic/recording/format.js';
import { BIN } from '../../helpers/mock-process.js';
import { startOtherService, type OtherService } from '../../helpers/proxied-service.js';

const KEY = 'sk_live_canary_0123456789abcdef';
const REDACTION_KEY = 'cli-redaction-key-0001';
const children: ChildProcess[] = [];
const services: OtherService[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.all(services.splice(0).map((service) => service.close()));
});

/** The bin with `args`; resolves once it printed its URL, with everything it prints since. */
async function bin(args: readonly string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const printed = async (pattern: RegExp, ms = 10_000) => {
    const until = Date.now() + ms;
    while (!pattern.test(out)) {
      if (Date.now() > until || child.exitCode !== null) throw new Error(`did not print ${pattern}: ${out}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return pattern.exec(out)!;
  };
  const url = (await printed(/listening on (\S+)/))[1]!;
  return { child, url, output: () => out, printed, exited: () => exited };
}

async function other(): Promise<OtherService> {
  const service = await startOtherService();
  services.push(service);
  return service;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

describe('bizmsg-mock proxy and replay, as users run them', () => {
  it('documents every flag, and exits 2 naming a wrong target or one that is the proxy itself', async () => {
    const help = spawnSync(process.execPath, [BIN, 'proxy', '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain(
      'bizmsg-mock proxy --target URL [--variant 1|2] [--port N] [--record DIR] [--record-limit MB]\n' +
        '                         [--redaction-key K] [--quiet]',
    );
    expect(help.stdout).toContain('bizmsg-mock replay DIR [--port N] [--redaction-key K] [--quiet]');
    for (const flag of [
      '--target URL',
      '--variant 1|2',
      '--port N',
      '--record DIR',
      '--record-limit MB',
      '--redaction-key K',
      '--quiet',
    ])
      expect(help.stdout).toMatch(new RegExp(`^  ${flag.replace(/[|]/g, '\\$&')}\\s{2,}\\S`, 'm'));
    const port = await freePort();
    for (const [args, message] of [
      [['proxy'], 'proxy needs --target'],
      [
        ['proxy', '--target', 'http://x.example/api/v2'],
        "--target must be the service's base URL: an absolute http(s) URL ending in /api/v1, got 23 characters (not shown)",
      ],
      [
        ['proxy', '--target', 'http://127.0.0.1:1/api/v1', '--redaction-key', 'short'],
        '--redaction-key must be at least 16 characters, got 5 characters',
      ],
      [
        ['proxy', '--target', `http://localhost:${port}/api/v1`, '--port', String(port)],
        `The target http://localhost:${port}/api/v1 must not point at this mock itself`,
      ],
      [
        ['proxy', '--target', 'http://user:PASSWORD-CANARY@127.0.0.1:1/api/v1'],
        'The target must not carry a user name or password',
      ],
      [
        ['proxy', '--target', 'http://127.0.0.1:1/api/v1', '--record-limit', '0'],
        '--record-limit must be a whole number of MB from 1 to 1048576, got "0"',
      ],
      [['replay'], 'replay needs the folder of a recording'],
      [['replay', join(tmpdir(), 'no-such-recording-31')], 'is not a folder this process can read'],
      [['replay', tmpdir(), '--seed', '1'], '--seed is not a flag of bizmsg-mock replay'],
    ] as const) {
      const run = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stdout + run.stderr).not.toContain('PASSWORD-CANARY');
    }
  });

  it('prints each new finding once, and a line per request; SIGTERM exits 0', async () => {
    const service = await other();
    const proxy = await bin(['proxy', '--target', service.baseUrl, '--port', '0']);
    expect(proxy.output()).toContain(
      `Forwarding to ${service.baseUrl} (Variant 2's contract): the API key passes through and is written nowhere`,
    );
    for (let i = 0; i < 3; i++) await fetch(`${proxy.url}/account/me`, { headers: { authorization: `Bearer ${KEY}` } });
    await proxy.printed(/(GET \/account\/me -> 200[^\n]*\n[^]*){3}/);
    const line = 'drift: GET /account/me response header X-RateLimit-Reset (expected integer, received missing)';
    expect(proxy.output().split(line).length - 1).toBe(1);
    expect(proxy.output()).not.toContain(KEY);
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited()).toBe(0);
  });

  it('writes every exchange it answered before SIGTERM stops it, owner-only, and exits 0', async () => {
    const service = await other();
    const dir = mkdtempSync(join(tmpdir(), 'bizmsg-stopped-'));
    const proxy = await bin(['proxy', '--target', service.baseUrl, '--port', '0', '--record', dir, '--quiet']);
    const note = 'n'.repeat(200_000);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${proxy.url}/contacts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Customer ${i}`, phone: `+49151${String(10_000_000 + i)}`, note }),
        }).then((answer) => answer.status),
      ),
    );
    // Stopped right after the last answer, before most of the 40 files can have been written.
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited()).toBe(0);
    expect(answers.filter((status) => status < 500)).toHaveLength(40);
    const names = readdirSync(dir).filter((name) => name.endsWith('.json'));
    expect(names).toHaveLength(40);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(names.map((name) => statSync(join(dir, name)).mode & 0o777)).toEqual(names.map(() => 0o600));
  });

  it('leaves only whole JSON files when killed -9 mid-recording, and the recording replays with the service stopped', async () => {
    const service = await other();
    const dir = mkdtempSync(join(tmpdir(), 'bizmsg-killed-'));
    const proxy = await bin([
      'proxy',
      '--target',
      service.baseUrl,
      '--port',
      '0',
      '--record',
      dir,
      '--redaction-key',
      REDACTION_KEY,
      '--quiet',
    ]);
    const body = (i: number) =>
      JSON.stringify({ name: `Contact ${i}`, phone: '+4915112345678', tags: ['x'.repeat(2000)] });
    let sent = 0;
    const flood = Array.from({ length: 8 }, async () => {
      while (proxy.child.exitCode === null && proxy.child.signalCode === null) {
        const i = sent++;
        await fetch(`${proxy.url}/contacts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: body(i),
        }).catch(() => undefined);
      }
    });
    while (readdirSync(dir).filter((name) => name.endsWith('.json')).length < 40)
      await new Promise((resolve) => setTimeout(resolve, 5));
    proxy.child.kill('SIGKILL');
    await Promise.all(flood);
    const names = readdirSync(dir).filter((name) => name.endsWith('.json'));
    expect(names.length).toBeGreaterThanOrEqual(40);
    for (const name of names)
      expect(RecordedExchangeSchema.safeParse(JSON.parse(readFileSync(join(dir, name), 'utf8'))).success).toBe(true);
    // Only whole files in DIR: a file cut by the kill can only be under DIR/.partial/, emptied at the next start.
    expect(readdirSync(dir).filter((name) => !name.endsWith('.json'))).toEqual(['.partial']);

    await service.close();
    const replay = await bin(['replay', dir, '--port', '0', '--redaction-key', REDACTION_KEY]);
    const client = new Variant2Client({ apiKey: KEY, baseUrl: replay.url, maxRetries: 0 });
    const recorded = JSON.parse(readFileSync(join(dir, names[0]!), 'utf8'));
    const i = Number(/Contact (\d+)/.exec(recorded.request.body.name)![1]);
    expect(
      await client.contacts.create({ name: `Contact ${i}`, phone: '+4915112345678', tags: ['x'.repeat(2000)] }),
    ).toEqual({
      ...recorded.response.body.data,
      phone: '+4915112345678',
    });
    await expect(client.contacts.get(12345)).rejects.toThrow(/501/);
    await replay.printed(
      /no recording: GET \/contacts\/12345 -> 501 NO_RECORDING \(closest: [^;]+; differs in method, path/,
    );
  });

  it('runs under a real terminal too', () => {
    const run = spawnSync('script', ['-qec', `${process.execPath} ${BIN} proxy --help`, '/dev/null'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('bizmsg-mock replay DIR');
  });
});
