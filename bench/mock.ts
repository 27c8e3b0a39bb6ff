import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockServer, openApiDocument, startMockHttpServer, type MockServer } from 'bizmsg/mock';
import { Pool } from 'undici';
import { alternate, median, ratio, type BenchOptions, type Row } from './lib.js';
import { floorAnswer } from './floor-answer.mjs';
import { localServer } from './local-server.js';

/** A mock holding `count` contacts, without a rate limit in the way. */
function mockWith(count: number): MockServer {
  const contacts = Array.from({ length: count }, (_, i) => ({
    name: `Contact ${i + 1}`,
    phone: `49151${String(i + 1).padStart(8, '0')}`,
  }));
  return createMockServer({
    variant: 2,
    baseUrl: `https://list-${count}.bizmsg.test/api/v1`,
    plans: { enterprise: { rateLimit: 1_000_000_000 } },
    seed: { contacts },
  });
}

/** Median µs of `GET /contacts?page=…` answered in process (no msw, no sockets). */
async function listLatency(mock: MockServer, page: number, iterations: number): Promise<number> {
  const request = () =>
    new Request(`${mock.baseUrl}/contacts?page=${page}&per_page=20`, {
      headers: { authorization: `Bearer ${mock.apiKey}` },
    });
  for (let i = 0; i < 50; i++) await (await mock.handle(request())).text();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await (await mock.handle(request())).text();
    samples.push((performance.now() - started) * 1000);
  }
  return median(samples);
}

/** Median µs of one `GET /account/me` through fetch, intercepted by msw (how test suites use it). */
async function mswLatency(iterations: number): Promise<number> {
  const mock = createMockServer({
    variant: 2,
    baseUrl: 'https://msw.bizmsg.test/api/v1',
    plans: { enterprise: { rateLimit: 1_000_000_000 } },
  });
  mock.listen();
  try {
    const headers = { authorization: `Bearer ${mock.apiKey}` };
    for (let i = 0; i < 50; i++) await (await fetch(`${mock.baseUrl}/account/me`, { headers })).text();
    const samples: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const started = performance.now();
      await (await fetch(`${mock.baseUrl}/account/me`, { headers })).text();
      samples.push((performance.now() - started) * 1000);
    }
    return median(samples);
  } finally {
    mock.close();
  }
}

/** Requests per second from `connections` concurrent fetch loops over `ms`. */
async function throughput(url: string, headers: Record<string, string>, ms: number, connections = 8): Promise<number> {
  let count = 0;
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        await (await fetch(url, { headers })).text();
        count += 1;
      }
    }),
  );
  return (count / ms) * 1000;
}

/** A server in a child process, and its CPU time so far (Linux /proc, in µs). */
interface ChildServer {
  url: string;
  apiKey?: string;
  cpuMicros(): number;
  close(): Promise<void>;
}

/** Starts `node <args>` and waits for the JSON line it prints once listening. */
export async function childServer(args: string[]): Promise<ChildServer> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
  const { url, apiKey } = JSON.parse(line) as { url: string; apiKey?: string };
  return { url, apiKey, cpuMicros: () => cpuMicros(child.pid!), close: () => stop(child) };
}

/** Prism mocking `document` on a free loopback port, once it answers. */
async function prismServer(document: string, headers: Record<string, string>): Promise<ChildServer> {
  const port = await freePort();
  const bin = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
  const child = spawn(process.execPath, [bin, 'mock', document, '--host', '127.0.0.1', '--port', String(port)], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Prism exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/account/me`, { headers }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (performance.now() > deadline) throw new Error('Prism did not answer within 120 s.');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, cpuMicros: () => cpuMicros(child.pid!), close: () => stop(child) };
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** User + system CPU time of a process, from /proc (clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Requests/s and server CPU µs per request, from 8 keep-alive connections of an undici pool for `ms`. */
async function load(
  server: ChildServer,
  path: string,
  headers: Record<string, string>,
  ms: number,
): Promise<{ rps: number; cpu: number }> {
  const { origin, pathname } = new URL(`${server.url}${path}`);
  const pool = new Pool(origin, { connections: 8 });
  let count = 0;
  const cpuBefore = server.cpuMicros();
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (performance.now() < until) {
        const response = await pool.request({ method: 'GET', path: pathname, headers });
        await response.body.text();
        if (response.statusCode !== 200) throw new Error(`${origin}${pathname} answered ${response.statusCode}`);
        count += 1;
      }
    }),
  );
  const cpu = (server.cpuMicros() - cpuBefore) / count;
  await pool.close();
  return { rps: (count / ms) * 1000, cpu };
}

/**
 * The mock as a team would run it (`bizmsg-mock`, its own process) against a bare node:http
 * server and against Prism serving the generated document, each in its own process, loaded
 * alike from this one, alternating, several rounds. Requests/s, and server CPU per request
 * (which the shared machine's load disturbs less).
 */
async function servers({ quick, root }: BenchOptions): Promise<Row[]> {
  const documentPath = join(tmpdir(), `bizmsg-bench-openapi-${process.pid}.json`);
  writeFileSync(documentPath, JSON.stringify(openApiDocument(2)));
  const mock = await childServer([join(root, 'bench/servers/mock.mjs'), '2']);
  const unjournaled = await childServer([join(root, 'bench/servers/mock.mjs'), '2', 'no-journal']);
  const headers = { authorization: `Bearer ${mock.apiKey}` };
  const floor = await childServer([join(root, 'bench/servers/floor.mjs')]);
  const prism = await prismServer(documentPath, headers);
  try {
    const ms = quick ? 500 : 3000;
    const rounds = quick ? 1 : 5;
    const samples = {
      mock: [] as Array<{ rps: number; cpu: number }>,
      unjournaled: [] as Array<{ rps: number; cpu: number }>,
      floor: [] as Array<{ rps: number; cpu: number }>,
      prism: [] as Array<{ rps: number; cpu: number }>,
    };
    const unjournaledHeaders = { authorization: `Bearer ${unjournaled.apiKey}` };
    // Warm-up: JIT and connections, not measured.
    for (const [server, path, auth] of [
      [mock, '/account/me', headers],
      [unjournaled, '/account/me', unjournaledHeaders],
      [floor, '/account/me', headers],
      [prism, '/account/me', headers],
    ] as const)
      await load(server, path, auth, 300);
    await alternate(rounds, {
      mock: async () => (samples.mock.push(await load(mock, '/account/me', headers, ms)), 0),
      unjournaled: async () => (
        samples.unjournaled.push(await load(unjournaled, '/account/me', unjournaledHeaders, ms)),
        0
      ),
      floor: async () => (samples.floor.push(await load(floor, '/account/me', headers, ms)), 0),
      prism: async () => (samples.prism.push(await load(prism, '/account/me', headers, ms)), 0),
    });
    const rps = {
      mock: median(samples.mock.map((s) => s.rps)),
      unjournaled: median(samples.unjournaled.map((s) => s.rps)),
      floor: median(samples.floor.map((s) => s.rps)),
      prism: median(samples.prism.map((s) => s.rps)),
    };
    const cpu = {
      mock: median(samples.mock.map((s) => s.cpu)),
      floor: median(samples.floor.map((s) => s.cpu)),
      prism: median(samples.prism.map((s) => s.cpu)),
    };
    const rounds_ = (key: keyof typeof samples) => samples[key].map((s) => Math.round(s.rps)).join(', ');
    console.error(
      `figure 7 rounds, req/s: mock ${rounds_('mock')}; mock without journal ${rounds_('unjournaled')}; node:http ${rounds_('floor')}; Prism ${rounds_('prism')}`,
    );
    const subject = 'GET /account/me, 8 connections, server in its own process';
    return [
      {
        figure: '7',
        subject: `bizmsg-mock over HTTP, ${subject}`,
        value: Math.round(rps.mock),
        unit: 'req/s',
        baseline: {
          name: 'bare node:http JSON server',
          value: Math.round(rps.floor),
          ratio: ratio(rps.mock, rps.floor),
        },
        target: { text: '>= 0.8x node:http', met: rps.mock >= 0.8 * rps.floor },
      },
      {
        figure: '7',
        subject: `bizmsg-mock over HTTP, ${subject}`,
        value: Math.round(rps.mock),
        unit: 'req/s',
        baseline: {
          name: `Prism ${PRISM_VERSION} mocking the generated document`,
          value: Math.round(rps.prism),
          ratio: ratio(rps.mock, rps.prism),
        },
        target: { text: '>= 3x Prism', met: rps.mock >= 3 * rps.prism },
      },
      {
        figure: '7',
        subject: `bizmsg-mock, request journal on (1,000 kept) and control API, ${subject}`,
        value: Math.round(rps.mock),
        unit: 'req/s',
        baseline: {
          name: 'the same without a journal',
          value: Math.round(rps.unjournaled),
          ratio: ratio(rps.mock, rps.unjournaled),
        },
        target: { text: '>= 0.9x without a journal', met: rps.mock >= 0.9 * rps.unjournaled },
      },
      {
        figure: '7',
        subject: 'bizmsg-mock server CPU per request',
        value: Math.round(cpu.mock),
        unit: 'µs',
        baseline: { name: 'bare node:http', value: Math.round(cpu.floor), ratio: ratio(cpu.mock, cpu.floor) },
        note: `Prism: ${Math.round(cpu.prism)} µs`,
      },
    ];
  } finally {
    await Promise.all([mock.close(), unjournaled.close(), floor.close(), prism.close()]);
    rmSync(documentPath, { force: true });
  }
}

export const PRISM_VERSION = (
  createRequire(import.meta.url)('@stoplight/prism-cli/package.json') as { version: string }
).version;

/** Figure 7: the mock's list latency against store size, and its requests/s over HTTP. */
export async function measureMock(options: BenchOptions): Promise<Row[]> {
  const { quick } = options;
  const small = mockWith(100);
  const large = mockWith(100_000);
  const iterations = quick ? 200 : 2000;
  const latency = await alternate(quick ? 1 : 5, {
    small: () => listLatency(small, 3, iterations),
    large: () => listLatency(large, 2500, iterations),
  });
  const viaMsw = await mswLatency(iterations);
  const http = await startMockHttpServer({ variant: 2, plans: { enterprise: { rateLimit: 1_000_000_000 } } });
  const floor = await localServer(floorAnswer);
  try {
    const ms = quick ? 500 : 3000;
    const headers = { authorization: `Bearer ${http.apiKey}` };
    const rps = await alternate(quick ? 1 : 3, {
      mock: () => throughput(`${http.baseUrl}/account/me`, headers, ms),
      floor: () => throughput(`${floor.origin}/api/v1/account/me`, headers, ms),
    });
    return [
      { figure: '7', subject: 'mock list, 100 contacts (page 3 of 20)', value: Math.round(latency.small), unit: 'µs' },
      {
        figure: '7',
        subject: 'mock list, 100,000 contacts (page 2500 of 20)',
        value: Math.round(latency.large),
        unit: 'µs',
        baseline: {
          name: '100 contacts',
          value: Math.round(latency.small),
          ratio: ratio(latency.large, latency.small),
        },
        note: 'cost grows with the page, not the store',
      },
      {
        figure: '7',
        subject: 'mock in process through msw, GET /account/me (sequential)',
        value: Math.round(viaMsw),
        unit: 'µs',
      },
      {
        figure: '7',
        subject: 'mock over HTTP, GET /account/me, 8 connections, server and fetch loops in one process',
        value: Math.round(rps.mock),
        unit: 'req/s',
        baseline: {
          name: 'bare node:http JSON server',
          value: Math.round(rps.floor),
          ratio: ratio(rps.mock, rps.floor),
        },
      },
      ...(await servers(options)),
    ];
  } finally {
    small.pause();
    large.pause();
    await http.close();
    await floor.close();
  }
}
