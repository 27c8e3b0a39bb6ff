import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MockHttpServer } from '../../src/mock/index.js';
import { bundleForWeb } from './bundle.js';
import { expectedScenario, type Entry } from './expected.js';
import { consumer, matrixBinary, runText, startPackedMock } from './helpers.js';

const workerd = matrixBinary('.bin/workerd');
// bizmsg/mock is its Web build (no msw); bizmsg/redis is for Node.
const ENTRIES: Entry[] = ['bizmsg', 'bizmsg/webhooks', 'bizmsg/mock'];

/** A workerd config serving one ES-module Worker whose fetch() may reach loopback addresses only. */
function config(bundle: string): string {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "${basename(bundle)}")],
  compatibilityDate = "2026-10-01",
  globalOutbound = "loopback",
);
`;
}

/** Starts workerd and resolves with the port its socket got, which it reports on the control fd. */
function serve(configFile: string): Promise<{ process: ChildProcess; port: number }> {
  const child = spawn(workerd, ['serve', configFile, '--control-fd=3'], {
    cwd: consumer,
    stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`workerd exited with ${code} before listening`)));
    createInterface({ input: child.stdio[3] as Readable }).on('line', (line) => {
      const message = JSON.parse(line) as { event: string; socket?: string; port?: number };
      if (message.event === 'listen' && message.socket === 'http') resolve({ process: child, port: message.port! });
    });
  });
}

let server: MockHttpServer;
let worker: { process: ChildProcess; port: number };
beforeAll(async () => {
  server = await startPackedMock();
  const bundle = await bundleForWeb('worker.mjs', ['workerd', 'worker', 'browser']);
  const configFile = join(consumer, 'workerd.capnp');
  writeFileSync(configFile, config(bundle));
  worker = await serve(configFile);
});
afterAll(async () => {
  worker?.process.kill();
  await server?.close();
});
beforeEach(() => server.mock.reset());

describe('the packed package on workerd', () => {
  it('is the pinned version', async () => {
    expect(await runText(workerd, ['--version'])).toBe('workerd 2026-10-23');
  });

  it('bundles the Worker entries, calls the mock over loopback and in the Worker, verifies webhooks async', async () => {
    const response = await fetch(`http://127.0.0.1:${worker.port}/`, {
      method: 'POST',
      body: JSON.stringify({ baseUrl: server.baseUrl, apiKey: server.apiKey }),
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(JSON.parse(text)).toEqual(expectedScenario(ENTRIES, 'web'));
  });
});
