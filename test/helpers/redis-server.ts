import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real redis-server of our own, on a free loopback port, with no persistence. */
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** Kills the server at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open and nothing is answered. */
  freeze(): void;
  /** Lets a frozen server go on (SIGCONT). */
  thaw(): void;
  /** Stops it and removes its directory. */
  stop(): Promise<void>;
}

/** True when redis-server is installed (`.ci/run` installs it). */
export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/** A free loopback port: redis-server cannot take `--port 0`, so a port is found by binding one first. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts a redis-server on a free port in a temporary directory, ready to answer; throws when none is installed. */
export async function startRedisServer(): Promise<RedisServer> {
  if (!hasRedisServer())
    throw new Error('redis-server is not installed: `apt-get install -y redis-server` (.ci/run does it).');
  const dir = mkdtempSync(join(tmpdir(), 'bizmsg-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      {
        stdio: 'ignore',
      },
    );
    await waitForPing(port, child);
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    restart: launch,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once the server answers PING; rejects if it exits or takes over 10 s. */
async function waitForPing(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode} (is port ${port} taken?)`);
    if (await pings(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within 10 s`);
}

function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.setTimeout(1000);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
