import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError, ValidationError, Variant2Client } from '../../src/index.js';
import { startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { errorEnvelope, rawApi } from '../helpers/mock-api.js';

const BIN = fileURLToPath(new URL('../../dist/mock/cli.js', import.meta.url));
/** What a key or webhook secret looks like: never echoed by a usage error. */
const SECRET_LIKE = 'whsec_0123456789abcdef0123456789abcdef01';
const USAGE = [
  'Usage: bizmsg-mock [--port 4010] [--host 127.0.0.1] [--variant 1|2] [--seed N] [--seed-file FILE]',
  '                   [--forward-to URL [--events kind,kind] [--secret S]] [--control-token T]',
  '                   [--allowed-hosts name,.domain] [--quiet] [--openapi]',
  '       bizmsg-mock emit <event kind> --to URL --secret S [--data JSON]',
  '       bizmsg-mock proxy --target URL [--variant 1|2] [--port N] [--record DIR] [--record-limit MB]',
  '                         [--redaction-key K] [--quiet]',
  '       bizmsg-mock replay DIR [--port N] [--redaction-key K] [--quiet]',
  '       bizmsg-mock --help | --version',
].join('\n');

let server: MockHttpServer;
beforeAll(async () => {
  server = await startMockHttpServer({ variant: 2 });
});
afterAll(() => server.close());

describe('startMockHttpServer', () => {
  it('serves the same API over real HTTP', async () => {
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const api = rawApi({ baseUrl: server.baseUrl, apiKey: server.apiKey, variant: 2 });
    const created = await api('POST', '/contacts', { body: { name: 'Ada', phone: '4915112345678' } });
    expect([created.status, created.body.data.id]).toEqual([201, 1]);
    expect(created.headers.get('x-ratelimit-limit')).toBe('2000');
    const malformed = await api('POST', '/contacts', { rawBody: '{nope' });
    expect([malformed.status, malformed.body]).toEqual([
      422,
      errorEnvelope(2, { code: 'VALIDATION_ERROR', details: { body: ['is not valid JSON'] } }),
    ]);
    expect((await api('GET', '/contacts/%E0%A4%A')).status).toBe(404);
    expect(
      (
        await fetch(`${server.baseUrl.replace('/api/v1', '/api/v10')}/contacts`, {
          headers: { authorization: `Bearer ${server.apiKey}` },
        })
      ).status,
    ).toBe(404);
    expect(server.mock.store.contacts).toHaveLength(1);
  });

  it('works with the SDK client, including typed errors and injected network failures', async () => {
    const client = new Variant2Client({ apiKey: server.apiKey, baseUrl: server.baseUrl, maxRetries: 0 });
    expect((await client.contacts.list()).meta).toEqual({ current_page: 1, per_page: 20, total: 1, last_page: 1 });
    await expect(client.contacts.create({ name: 'B', phone: '4915100000002', email: 'nope' })).rejects.toBeInstanceOf(
      ValidationError,
    );
    server.mock.inject({ route: 'POST /messages/send', networkError: true });
    const error = await client.messages
      .sendText({ to: '4915112345678', messaging_account_id: 1, body: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).mayHaveBeenProcessed).toBe(true);
  });

  it('refuses a port or host it cannot listen on with an InvalidArgumentError saying which and why', async () => {
    const refused = async (options: object) =>
      startMockHttpServer(options as never).then(
        async (started) => {
          await started.close();
          return 'started';
        },
        (error: Error) => [error.name, error.message],
      );
    for (const port of ['abc', 99_999, -1, 1.5]) {
      expect(await refused({ port })).toEqual([
        'InvalidArgumentError',
        `The \`port\` option must be an integer from 0 to 65535, got ${typeof port === 'string' ? `"${port}"` : port}.`,
      ]);
    }
    expect(await refused({ host: '' })).toEqual([
      'InvalidArgumentError',
      `The \`host\` option must be a host name or IP address such as '127.0.0.1', got "".`,
    ]);
    const taken = Number(new URL(server.origin).port);
    expect(await refused({ port: taken })).toEqual([
      'InvalidArgumentError',
      `Cannot listen on 127.0.0.1:${taken}: the port is taken; choose another, or 0 for any free one.`,
    ]);
  });
});

describe('bizmsg-mock bin', () => {
  it('prints the base URL and a key, and serves until interrupted', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/mock/cli/main.ts', '--port', '0', '--variant', '1'],
      {
        cwd: new URL('../..', import.meta.url),
      },
    );
    try {
      const output = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('Try:')) resolve(text);
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}: ${text}`)));
      });
      const url = /listening on (\S+)/.exec(output)![1]!;
      const key = /API key: (\S+)/.exec(output)![1]!;
      expect(output).toContain('bizmsg mock (Variant 1) listening on http://127.0.0.1:');
      const me = await fetch(`${url}/account/me`, { headers: { 'x-api-key': key } });
      expect([me.status, (await me.json()).success]).toEqual([200, true]);
    } finally {
      child.kill('SIGINT');
    }
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
  });

  it('rejects a bad argument naming it, then the usage line', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/mock/cli/main.ts', '--variant', '3'], {
      cwd: new URL('../..', import.meta.url),
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect([code, stderr]).toEqual([2, `bizmsg-mock: --variant must be 1 or 2, got "3"\n${USAGE}\n`]);
  });

  // The built bin, as `npx bizmsg-mock` runs it (npm test builds first): each wrong flag or value is named.
  it.each([
    [['--variant', '3', '--openapi'], '--variant must be 1 or 2, got "3"'],
    [['--port', 'abc'], '--port must be an integer from 0 to 65535, got "abc"'],
    [['--port', '70000'], '--port must be an integer from 0 to 65535, got "70000"'],
    [['--port='], '--port must be an integer from 0 to 65535, got ""'],
    [['--port', '0x10'], '--port must be an integer from 0 to 65535, got "0x10"'],
    [['--port', '-1'], '--port must be an integer from 0 to 65535, got "-1"'],
    [['--seed', 'x'], '--seed must be an integer (the random seed; for seed data use --seed-file FILE), got "x"'],
    [['--seed', '1e21'], '--seed must be an integer (the random seed; for seed data use --seed-file FILE), got "1e21"'],
    [
      ['--seed', '{"contacts":[]}'],
      '--seed must be an integer (the random seed; for seed data use --seed-file FILE), got "{\\"contacts\\":[]}"',
    ],
    [['--host='], '--host must be a host name or IP address, got ""'],
    [['--port'], '--port needs a value: an integer from 0 to 65535'],
    [['--nope'], 'unknown flag --nope'],
    [['-x'], 'unknown flag -x'],
    // A value or flag pasted whole is cut short, not echoed at length.
    [['--port', '9'.repeat(100)], `--port must be an integer from 0 to 65535, got "${'9'.repeat(40)}…"`],
    [[`--${'x'.repeat(100)}`], `unknown flag --${'x'.repeat(38)}… (102 characters)`],
    // What the terminal would run as an escape sequence or a bidi reordering is shown inert.
    [['--x\u001b[31m\u202e'], 'unknown flag --x\\u001b[31m\\u202e'],
    [['--openapi=yes'], '--openapi takes no value, got "yes"'],
    [['extra'], 'unexpected argument: "extra"'],
    // A secret is never echoed: the terminal may be shared, or its output kept in a CI log. Nor is a
    // value where one lands by mistake: a URL flag, a stray argument, a switch's value.
    [
      ['--control-token', 'short secret'],
      '--control-token must be at least 16 printable characters without spaces, got 12 characters (not shown)',
    ],
    [['--forward-to', SECRET_LIKE], '--forward-to must be an http(s) URL, got 40 characters (not shown)'],
    [['--forward-to', 'http://x.test', '--secret=', SECRET_LIKE], 'unexpected argument: 40 characters (not shown)'],
    [[`--quiet=${SECRET_LIKE}`], '--quiet takes no value, got 40 characters (not shown)'],
  ])('bizmsg-mock %j exits 2 saying: %s', (args, problem) => {
    const run = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 10_000 });
    expect([run.status, run.stdout, run.stderr]).toEqual([2, '', `bizmsg-mock: ${problem}\n${USAGE}\n`]);
    expect(run.stderr).not.toContain('0123456789abcdef');
  });

  it('accepts the extremes of each value', () => {
    const run = spawnSync(process.execPath, [BIN, '--openapi', '--port', '65535', '--variant', '1', '--seed', '-7'], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect([run.status, run.stderr, JSON.parse(run.stdout).servers]).toEqual([
      0,
      '',
      [{ url: 'http://127.0.0.1:65535/api/v1' }],
    ]);
  });
});
