import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

/** The built bin, as `npx bizmsg-mock` runs it (`npm test` builds first). */
export const BIN = fileURLToPath(new URL('../../dist/mock/cli.js', import.meta.url));

/** A `bizmsg-mock` process: what it printed at start, and all it prints since. */
export interface MockProcess {
  readonly child: ChildProcess;
  /** Base URL, `http://127.0.0.1:PORT/api/v1`. */
  readonly url: string;
  readonly port: number;
  readonly apiKey: string;
  /** Everything printed to stdout so far. */
  output(): string;
  /** Resolves with the exit code once the process ended. */
  exited(): Promise<number | null>;
  /** Resolves once stdout has a line matching `pattern` (rejects after `ms`). */
  printed(pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
}

/** Starts `bizmsg-mock` with `args` on a free port (unless `--port` is in them), once it listens. */
export async function startMockProcess(
  args: readonly string[],
  options: { command?: readonly string[]; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<MockProcess> {
  const command = options.command ?? [process.execPath, BIN];
  const portArgs = args.includes('--port') ? [] : ['--port', '0'];
  const child = spawn(command[0]!, [...command.slice(1), ...portArgs, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const listener of listeners) listener();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const printed = (pattern: RegExp, ms = 10_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const found = pattern.exec(stdout);
        if (found === null) return;
        done();
        resolve(found);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`bizmsg-mock did not print ${pattern} within ${ms} ms; stdout: ${stdout}; stderr: ${stderr}`));
      }, ms);
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      void exit.then(() => {
        if (!pattern.test(stdout)) {
          done();
          reject(new Error(`bizmsg-mock exited before printing ${pattern}; stdout: ${stdout}; stderr: ${stderr}`));
        }
      });
      check();
    });
  const url = (await printed(/listening on (\S+)/))[1]!;
  const apiKey = (await printed(/API key: (\S+)/))[1]!;
  return { child, url, port: Number(new URL(url).port), apiKey, output: () => stdout, exited: () => exit, printed };
}

/** `startMockProcess` for the tests of a file: each process it starts is killed after its test. */
export function useMockProcesses(): typeof startMockProcess {
  const running: MockProcess[] = [];
  afterEach(() => {
    for (const mock of running.splice(0)) mock.child.kill('SIGKILL');
  });
  return async (args, options) => {
    const mock = await startMockProcess(args, options);
    running.push(mock);
    return mock;
  };
}

/** Whether something listens on a loopback port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Resolves once nothing listens on `port` any more (rejects after `ms`). */
export async function portFreed(port: number, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (await listening(port)) {
    if (Date.now() > deadline) throw new Error(`port ${port} is still in use after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
