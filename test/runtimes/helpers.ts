import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';
import type { MockHttpServer, MockHttpServerOptions } from '../../src/mock/index.js';

/** The consumer project that has the packed package installed (test/setup/package.ts). */
export const consumer = inject('consumer');

/** A binary installed by test/runtimes/package.json. */
export function matrixBinary(path: string): string {
  return new URL(`node_modules/${path}`, import.meta.url).pathname;
}

/** Starts the packed package's own mock over HTTP on a free loopback port. */
export async function startPackedMock(options: MockHttpServerOptions = { variant: 2 }): Promise<MockHttpServer> {
  const { startMockHttpServer } = (await import(
    pathToFileURL(join(consumer, 'mock-server.mjs')).href
  )) as typeof import('../../src/mock/index.js');
  return startMockHttpServer(options);
}

/** Runs a program in the consumer project and returns the JSON it printed last. */
export function runJson(command: string, args: string[], env: Record<string, string> = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: consumer, timeout: 90_000, env: { ...process.env, NO_COLOR: '1', ...env } },
      (error, stdout, stderr) => {
        const last = stdout.trim().split('\n').at(-1) ?? '';
        if (error)
          return reject(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stderr}\n${stdout}`));
        try {
          resolve(JSON.parse(last));
        } catch {
          reject(new Error(`${command} printed no JSON:\n${stdout}\n${stderr}`));
        }
      },
    );
  });
}

/** Runs a program in the consumer project and returns what it printed, trimmed. */
export function runText(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: consumer, timeout: 90_000 }, (error, stdout, stderr) =>
      error
        ? reject(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stderr}`))
        : resolve(stdout.trim()),
    );
  });
}
