import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { connectMock } from '../../../src/mock/index.js';
import { verifyWebhook } from '../../../src/webhooks/index.js';
import { startTestServer, useTestServer } from '../../helpers/http-server.js';
import { BIN, portFreed, useMockProcesses } from '../../helpers/mock-process.js';

const dir = mkdtempSync(join(tmpdir(), 'bizmsg-mock-'));
const receiver = useTestServer();
const start = useMockProcesses();

/**
 * Starts the bin in the background from a shell that waits until it listens, then exits, as a CI
 * step does (`bizmsg-mock & wait-on ...`): its pid, its log file and its base URL.
 */
async function startedInBackground(name: string, env: NodeJS.ProcessEnv) {
  const log = join(dir, `${name}.log`);
  const script = `"${process.execPath}" "${BIN}" --port 0 > "${log}" 2>&1 & pid=$!
until grep -q "listening on" "${log}" 2>/dev/null || ! kill -0 $pid 2>/dev/null; do sleep 0.05; done
echo $pid`;
  const shell = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'], env });
  let printed = '';
  shell.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  await new Promise((resolve) => shell.once('exit', resolve));
  const url = /listening on (\S+)/.exec(readFileSync(log, 'utf8'))?.[1];
  if (url === undefined) throw new Error(`bizmsg-mock did not start in the background:\n${readFileSync(log, 'utf8')}`);
  return { pid: Number(printed), log, url };
}

/** Whether process `pid` still runs (an exited one that no one reaped yet, a zombie, does not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function seedFile(options: unknown): string {
  const file = join(dir, `seed-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(options));
  return file;
}

describe('bizmsg-mock as a local emulator, driven from another process', () => {
  it('starts from a seed file, forwards events to a receiver with the secret it prints, and prints a line per request and delivery', async () => {
    const file = seedFile({
      variant: 1,
      keys: [{ key: 'sk_test_app', plan: 'starter', scopes: ['contacts:read'] }],
      seed: { contacts: [{ name: 'Ada', phone: '+4915112345678', tags: ['vip'] }] },
      templates: ['welcome'],
    });
    const mock = await start([
      '--seed-file',
      file,
      '--forward-to',
      `${receiver.origin}/hooks`,
      '--events',
      'message.received,conversation.created',
    ]);
    const secret = (await mock.printed(/Signing secret: (\S+)/))[1]!;
    expect(mock.output()).toContain(`Forwarding message.received, conversation.created to ${receiver.origin}/hooks`);
    expect(mock.output()).toContain('bizmsg mock (Variant 1) listening on');
    // The seed file's key is in the banner, after the seeded one (banner.integration.test.ts).
    expect(mock.output()).toContain(
      `API key: ${mock.apiKey}\nAPI key from the seed file: sk_test_app (plan starter, scopes contacts:read)\n`,
    );
    const contacts = await fetch(`${mock.url}/contacts`, { headers: { 'x-api-key': 'sk_test_app' } });
    expect(((await contacts.json()) as { data: Array<{ name: string }> }).data.map((c) => c.name)).toEqual(['Ada']);
    await mock.printed(/GET \/contacts -> 200 \(\d+ ms\)/);

    const control = connectMock(mock.url);
    await control.receiveMessage({ from: '+4915112345678', body: 'Hello?' });
    await mock.printed(/webhook message\.received -> \S+\/hooks 200 \(attempt 1, \d+ ms\)/);
    // Both events happen at once and are POSTed side by side (deliveries run concurrently): either may land first.
    expect(receiver.received.map((r) => (JSON.parse(r.body) as { event: string }).event).sort()).toEqual([
      'conversation.created',
      'message.received',
    ]);
    for (const request of receiver.received)
      expect(verifyWebhook(request.body, request.headers['x-service-signature'], secret)).toBe(true);
    expect(await control.requests()).toEqual([
      expect.objectContaining({ method: 'GET', path: '/contacts', status: 200 }),
    ]);
    // The forwarded endpoint is part of the seed: a reset keeps it.
    await control.reset();
    expect((await control.state()).webhooks.map((w) => [w.url, w.events])).toEqual([
      [`${receiver.origin}/hooks`, ['message.received', 'conversation.created']],
    ]);
  });

  it('checks template sends against the catalog of a seed file, and shows it in the state', async () => {
    const catalog = {
      order_update: { languages: ['en', 'de'], body: ['name', 'order_id'] },
      welcome: { languages: ['en'] },
    };
    const mock = await start(['--seed-file', seedFile({ templates: catalog })]);
    const send = async (content: unknown) => {
      const response = await fetch(`${mock.url}/messages/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: '+4915112345678', messaging_account_id: 1, type: 'template', content }),
      });
      return [response.status, ((await response.json()) as { error?: { message: string } }).error?.message];
    };
    const body = {
      type: 'body',
      parameters: [
        { type: 'text', text: 'Ada' },
        { type: 'text', text: 'A-17' },
      ],
    };
    expect(await send({ name: 'order_update', language: 'de', components: [body] })).toEqual([200, undefined]);
    expect(await send({ name: 'order_update', language: 'fr', components: [body] })).toEqual([
      400,
      'Template "order_update" in language "fr" does not exist (it has en, de).',
    ]);
    expect(await send({ name: 'welcome', language: 'en', components: [body] })).toEqual([
      422,
      'Invalid request parameters: content.components.body.',
    ]);
    expect((await connectMock(mock.url).state()).templates).toEqual(catalog);
  });

  it('never prints the control token, even in a path it serves', async () => {
    const token = 'a-token-never-to-be-printed-0001';
    const mock = await start(['--host', '0.0.0.0', '--control-token', token]);
    await fetch(`${mock.url}/contacts/${token}`);
    await fetch(`${new URL(mock.url).origin}/${token}`);
    await mock.printed(/GET \/\[REDACTED\] \(outside the API's base URL\) -> 404/);
    expect(mock.output()).toContain('GET /contacts/[REDACTED] -> ');
    // A long path is cut to 200 characters, after the token is replaced: no part of it is left.
    await fetch(`${mock.url}/contacts/${'x'.repeat(185)}${token}`);
    await mock.printed(/… \(205 characters\) -> 401/);
    expect(mock.output()).toContain(`GET /contacts/${'x'.repeat(185)}[REDA… (205 characters) -> 401`);
    // Printed in the banner only, for whoever started it: its own line, and the dashboard's URL.
    expect(
      mock
        .output()
        .split('\n')
        .filter((line) => line.includes(token)),
    ).toEqual([`Control token: ${token}`, `Dashboard: http://127.0.0.1:${mock.port}/#token=${token}`]);
  });

  it('runs the retry schedule to a disabled endpoint and an e-mail on the virtual clock, in seconds', async () => {
    receiver.handle((_, res) => {
      res.writeHead(503);
      res.end();
    });
    const mock = await start(['--variant', '1', '--quiet']);
    const control = connectMock(mock.url);
    await control.registerWebhook({ url: `${receiver.origin}/down`, events: ['message.sent'], secret: 'whsec_x' });
    await control.emit('message.sent');
    for (const ms of [60_000, 300_000, 1_800_000, 7_200_000, 86_400_000]) await control.clock.advance(ms);
    const state = await control.state();
    expect([state.deliveries.length, state.webhooks[0]!.status, state.emails.length]).toEqual([6, 'disabled', 1]);
    expect(mock.output()).not.toMatch(/webhook|->/);
  });

  it('stops on SIGTERM with exit code 0, freeing its port', async () => {
    const mock = await start([]);
    mock.child.kill('SIGTERM');
    expect(await mock.exited()).toBe(0);
    await portFreed(mock.port);
  });

  it('stops when the npx that started it goes away without passing a signal on, freeing its port', async () => {
    // A parent that starts the mock and is then killed outright, as npx is when it gets SIGTERM.
    const { parent, port } = await startUnder(
      `spawn(process.execPath, [${JSON.stringify(BIN)}, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] })`,
    );
    parent.kill('SIGKILL');
    await portFreed(port);
  });

  it('stops when the process above its shell goes away (npm runs a bin under sh -c), freeing its port', async () => {
    // `; true` keeps the shell between them, as npm's `sh -c` does.
    const { parent, port } = await startUnder(
      `spawn('sh', ['-c', ${JSON.stringify(`"${process.execPath}" "${BIN}" --port 0; true`)}], { stdio: ['ignore', 'pipe', 'inherit'] })`,
    );
    parent.kill('SIGKILL');
    await portFreed(port);
  });

  it('keeps serving when started in the background by a shell that then exits, as a CI step does', async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));
    const background = await startedInBackground('background', env);
    // The same start under npm (npm_command set), a witness: it stops at its first look at the
    // launcher gone. Once it has, a mock that watched its launcher would have stopped too.
    const witness = await startedInBackground('witness', { ...env, npm_command: 'exec' });
    try {
      await vi.waitFor(() => expect(alive(witness.pid)).toBe(false), { timeout: 10_000, interval: 50 });
      expect(readFileSync(witness.log, 'utf8')).toContain('bizmsg-mock: stopping: the npm exec that started it');
      expect((await connectMock(background.url).health()).ok).toBe(true);
    } finally {
      process.kill(background.pid, 'SIGTERM');
      if (alive(witness.pid)) process.kill(witness.pid, 'SIGTERM');
    }
  });

  it('requires a control token on a non-loopback bind: a random one printed, or the one given', async () => {
    const shared = await start(['--host', '0.0.0.0']);
    const token = (await shared.printed(/Control token: (\S+)/))[1]!;
    const { url } = shared;
    await expect(connectMock(url).health()).rejects.toThrow(/failed with 401/);
    expect((await connectMock(url, { controlToken: token }).health()).ok).toBe(true);
    const given = await start(['--host', '0.0.0.0', '--control-token', 'a-token-of-our-own-1234']);
    expect(given.output()).toContain('Control token: a-token-of-our-own-1234');
    // The dashboard's URL carries the token in its fragment, which a browser never sends.
    expect(shared.output()).toContain(`Dashboard: http://127.0.0.1:${shared.port}/#token=${token}\n`);
    expect(given.output()).toContain(`Dashboard: http://127.0.0.1:${given.port}/#token=a-token-of-our-own-1234\n`);
    const loopback = await start([]);
    expect(loopback.output()).not.toContain('Control token');
    expect(loopback.output()).toContain(`Dashboard: http://127.0.0.1:${loopback.port}/\n`);
  });

  it('prints the version of the package it came in with --version or -v, and exits 0', () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    for (const args of [['--version'], ['-v'], ['proxy', '--version']]) {
      const run = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 10_000 });
      expect([run.status, run.stdout, run.stderr]).toEqual([0, `${version}\n`, '']);
    }
  });

  it('refuses a port in use or an address not of this machine, naming the flag, with exit code 2', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = String((holder.address() as AddressInfo).port);
    try {
      const cases: Array<[string[], string]> = [
        [['--port', port], `port ${port} on 127.0.0.1 is in use (another bizmsg-mock?): pick another with --port`],
        [
          ['proxy', '--target', 'http://127.0.0.1:1/api/v1', '--port', port],
          `port ${port} on 127.0.0.1 is in use (another bizmsg-mock?): pick another with --port`,
        ],
        [['--host', '10.255.255.1', '--port', '0'], '--host 10.255.255.1 is not an address of this machine'],
      ];
      for (const [args, problem] of cases) {
        const run = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        run.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const status = await new Promise<number | null>((resolve) => run.on('exit', resolve));
        expect([status, stderr.split('\n')[0]]).toEqual([2, `bizmsg-mock: ${problem}`]);
      }
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('refuses a seed file that cannot work, naming the field, with exit code 2', () => {
    const cases: Array<[unknown, string]> = [
      [
        { seed: { contacts: [{ name: 'Ada', phone: '12' }] } },
        'seed.contacts.0.phone must be an international number: 8 to 15 digits, not starting with 0, with or without a leading +',
      ],
      [{ variant: 3 }, 'variant must be one of 1, 2'],
      [
        { keys: [{ key: 'sk_test_x', plan: 'platinum' }] },
        'Unknown plan "platinum"; this mock has: starter, professional, enterprise',
      ],
      [
        { contacts: [] },
        'contacts is not a known field (the file\'s fields: variant, keys, plans, templates, seed, webhookTimeout, history); contacts goes under seed: {"seed": {"contacts": …}}',
      ],
      [
        { varient: 1 },
        "varient is not a known field (the file's fields: variant, keys, plans, templates, seed, webhookTimeout, history)",
      ],
      [
        { templates: { order_update: { body: ['name'], buttons: [{ sub_type: 'url', params: ['name'] }] } } },
        'templates.order_update.buttons.0.params.0 repeats "name", a parameter of the body: a name is used once per template',
      ],
      [{ templates: { welcome: { languages: 'en' } } }, 'templates.welcome.languages must be an array'],
      [{ templates: 'welcome' }, 'templates must be an array or an object'],
      [{ seed: { random: 1.5 } }, 'seed.random must be an integer'],
      [{ seed: 'x' }, 'seed must be a number or an object'],
      [
        { seed: { webhooks: [{ url: 'https://u:p@example.com/h', events: ['message.sent'], secret: 's' }] } },
        'seed.webhooks.0.url must not carry a user name or password',
      ],
    ];
    for (const [options, problem] of cases) {
      const file = seedFile(options);
      const run = spawnSync(process.execPath, [BIN, '--port', '0', '--seed-file', file], {
        encoding: 'utf8',
        timeout: 10_000,
      });
      expect([run.status, run.stderr.split('\n')[0]]).toEqual([2, `bizmsg-mock: --seed-file ${file}: ${problem}`]);
    }
    const missing = spawnSync(process.execPath, [BIN, '--seed-file', join(dir, 'nope.json')], { encoding: 'utf8' });
    expect([missing.status, missing.stderr.split('\n')[0]]).toEqual([
      2,
      `bizmsg-mock: --seed-file ${join(dir, 'nope.json')} cannot be read: ENOENT: no such file or directory, open '${join(dir, 'nope.json')}'`,
    ]);
    // A file given by mistake (a .env) may hold a secret: none of its text is shown.
    const notJson = join(dir, 'secret.env');
    writeFileSync(notJson, 'BIZMSG_API_KEY=sk_live_0123456789abcdef\n');
    const parsed = spawnSync(process.execPath, [BIN, '--seed-file', notJson], { encoding: 'utf8' });
    expect([parsed.status, parsed.stderr.split('\n')[0]]).toEqual([
      2,
      `bizmsg-mock: --seed-file ${notJson} is not JSON: it must hold the options of createMockServer as one JSON object (its text is not shown).`,
    ]);
    expect(parsed.stderr).not.toContain('BIZMSG_API');
  });
});

describe('bizmsg-mock emit, with no server', () => {
  const emit = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'emit', ...args]);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });

  it('sends one signed sample of the kind, data merged, and exits 0 on a 2xx', async () => {
    const run = await emit([
      'message.delivered',
      '--to',
      `${receiver.origin}/hooks`,
      '--secret',
      'whsec_cli',
      '--data',
      '{"message_id":"msg_42"}',
    ]);
    expect([run.code, run.stdout]).toEqual([
      0,
      expect.stringMatching(new RegExp(`^message\\.delivered -> ${receiver.origin}/hooks 200 \\(\\d+ ms\\)\\n$`)),
    ]);
    const [request] = receiver.received;
    expect(verifyWebhook(request!.body, request!.headers['x-service-signature'], 'whsec_cli')).toBe(true);
    expect(JSON.parse(request!.body)).toEqual({
      event: 'message.delivered',
      timestamp: expect.any(String),
      data: {
        message_id: 'msg_42',
        to: '15550100001',
        status: 'delivered',
        delivered_at: expect.any(String),
        conversation_id: 0,
      },
    });
  });

  it('exits 1 naming the answer: an error, a redirect it does not follow, a receiver that is not there', async () => {
    receiver.handle((request, res) => {
      if (request.path === '/moved') res.writeHead(302, { location: '/elsewhere' });
      else res.writeHead(500);
      // An answer with escape sequences (clear the screen, set the title) is printed inert.
      res.end(request.path === '/moved' ? '' : 'boom\u001b[2J\u001b]0;owned\u0007\r');
    });
    const failed = await emit(['contact.created', '--to', `${receiver.origin}/hooks`, '--secret', 's']);
    expect([failed.code, failed.stderr]).toEqual([
      1,
      expect.stringMatching(
        /^bizmsg-mock emit: contact\.created -> \S+ 500 \(\d+ ms\): boom\\u001b\[2J\\u001b\]0;owned\\u0007\n$/,
      ),
    ]);
    const moved = await emit(['contact.created', '--to', `${receiver.origin}/moved`, '--secret', 's']);
    expect([moved.code, moved.stderr]).toEqual([
      1,
      expect.stringContaining('302 (') && expect.stringContaining('a redirect to /elsewhere, not followed'),
    ]);
    expect(receiver.received.map((r) => r.path)).toEqual(['/hooks', '/moved']);
    const closed = await startTestServer();
    await closed.close();
    const away = await emit(['contact.created', '--to', `${closed.origin}/hooks`, '--secret', 's']);
    expect([away.code, away.stderr]).toEqual([1, expect.stringContaining('ECONNREFUSED')]);
  });

  it('refuses what it cannot send, with exit code 2', async () => {
    expect((await emit(['message.bounced', '--to', 'http://x.test', '--secret', 's'])).stderr.split('\n')[0]).toBe(
      'bizmsg-mock: not an event kind: "message.bounced"; the kinds are message.received, message.sent, message.delivered, message.read, message.failed, conversation.created, conversation.closed, contact.created, contact.updated, campaign.completed',
    );
    expect(await emit(['message.sent', '--to', 'http://x.test'])).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^bizmsg-mock: emit needs --secret: a signing secret\n/),
    });
    expect((await emit(['message.sent', '--to', 'ftp://x', '--secret', 's'])).stderr.split('\n')[0]).toBe(
      'bizmsg-mock: --to must be an http(s) URL, got 7 characters (not shown)',
    );
    expect(
      (await emit(['message.sent', '--to', 'http://x.test', '--secret', 's', '--data', '[1]'])).stderr.split('\n')[0],
    ).toBe('bizmsg-mock: --data must be a JSON object, got 3 characters (not shown)');
    // A secret typed where the kind goes (after an empty --secret=) is not echoed either.
    const misplaced = await emit(['--secret=', 'whsec_0123456789abcdef', '--to', 'http://x.test']);
    expect(misplaced.stderr.split('\n')[0]).toBe(
      'bizmsg-mock: not an event kind: 22 characters (not shown); the kinds are message.received, message.sent, message.delivered, message.read, message.failed, conversation.created, conversation.closed, contact.created, contact.updated, campaign.completed',
    );
  });
});

/**
 * A node process, run as npx would be (`npm_command` set), whose `child` expression starts the
 * mock and passes its output on; with the port the mock printed.
 */
async function startUnder(child: string): Promise<{ parent: ChildProcess; port: number }> {
  const parent = spawn(
    process.execPath,
    [
      '-e',
      `const { spawn } = require('node:child_process');
       const child = ${child};
       child.stdout.on('data', (chunk) => process.stdout.write(chunk));`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, npm_command: 'exec' } },
  );
  let output = '';
  const port = await new Promise<number>((resolve) =>
    parent.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (found !== null) resolve(Number(found[1]));
    }),
  );
  return { parent, port };
}
