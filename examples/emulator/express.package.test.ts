// End-to-end tests of the Express example (examples/express) running in its own process, against
// bizmsg-mock running in another, as a QA suite would test a deployed app: the app reaches the
// service through BIZMSG_BASE_URL, and the tests steer and inspect the mock with connectMock.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { connectMock, type MockControl } from 'bizmsg/mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/** How to start the mock: `npx bizmsg-mock` in your project (here, the build of this repository). */
const MOCK = process.env.BIZMSG_MOCK
  ? (JSON.parse(process.env.BIZMSG_MOCK) as string[])
  : [process.execPath, fileURLToPath(new URL('../../dist/mock/cli.js', import.meta.url))];
const APP = fileURLToPath(new URL('../express/server.ts', import.meta.url));
const SECRET = 'whsec_express_e2e';

let mock: ChildProcess;
let app: ChildProcess;
let appLog = '';
let appUrl: string;
let control: MockControl;

beforeAll(async () => {
  mock = spawn(MOCK[0]!, [...MOCK.slice(1), '--port', '0', '--variant', '2', '--quiet']);
  const banner = await printed(mock, /Try: curl/);
  const baseUrl = /listening on (\S+)/.exec(banner)![1]!;
  control = connectMock(baseUrl);
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  app = spawn(process.execPath, ['--import', 'tsx', APP], {
    env: {
      ...process.env,
      PORT: String(port),
      BIZMSG_BASE_URL: baseUrl,
      BIZMSG_API_KEY: /API key: (\S+)/.exec(banner)![1]!,
      BIZMSG_WEBHOOK_SECRET: SECRET,
    },
  });
  app.stdout!.on('data', (chunk: Buffer) => (appLog += chunk.toString()));
  await printed(app, /POST http:\/\/localhost/);
}, 30_000);

afterAll(() => {
  app.kill();
  mock.kill();
});

beforeEach(async () => {
  await control.reset();
  await control.registerWebhook({ url: `${appUrl}/webhooks/bizmsg`, events: ['message.delivered'], secret: SECRET });
});

const post = (path: string, body: unknown) =>
  fetch(`${appUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the Express app against bizmsg-mock, each in its own process', () => {
  it('sends the text it is asked to, and takes the signed delivery receipt', async () => {
    const response = await post('/messages', { to: '+4915112345678', body: 'Your order shipped' });
    expect([response.status, await response.json()]).toEqual([201, { id: 'msg_1', status: 'sent' }]);
    const [sent] = await control.requests({ method: 'POST', path: '/messages/send' });
    expect(sent!.body).toEqual({
      to: '+4915112345678',
      messaging_account_id: 1,
      type: 'text',
      content: { body: 'Your order shipped' },
    });
    await control.clock.advance(1000); // delivered: the mock signs and POSTs message.delivered
    const [receipt] = await control.deliveries();
    expect([receipt!.event, receipt!.status]).toEqual(['message.delivered', 200]);
    expect(appLog).toMatch(/message msg_1 delivered at /);
  });

  it('answers 502 when the service fails the send', async () => {
    await control.inject({ route: 'POST /messages/send', status: 502 });
    const response = await post('/messages', { to: '+4915112345678', body: 'Hi' });
    expect([response.status, await response.json()]).toEqual([502, { error: 'MESSAGING_ERROR' }]);
  });
});

/** Resolves with what `child` printed once it matches `pattern`. */
function printed(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (pattern.test(output)) resolve(output);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing ${pattern}: ${output}`)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
