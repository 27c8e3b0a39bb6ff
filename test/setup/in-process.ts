import childProcess from 'node:child_process';
import dgram from 'node:dgram';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { afterAll, afterEach, expect } from 'vitest';

// The `unit` project runs in process: no socket, no child process (docs/contributing.md). This
// setup makes each way out throw where it is taken, and fails the test that took it even when the
// test caught what was thrown (a refused connection is what some tests wait for), so that a file
// that needs the outside world is moved to its project instead of slowing and flaking the unit run.
// test/house/projects.test.ts checks the third rule, no dist/, on the files' text.

interface Guard {
  /** What tests of the current file did that a unit test must not, not yet reported. */
  taken: string[];
}

const KEY = Symbol.for('bizmsg.test.in-process');
const store = globalThis as { [KEY]?: Guard };

/** Each worker patches Node's modules once; each test file's setup reads the same record. */
const guard = (store[KEY] ??= install());

function install(): Guard {
  const state: Guard = { taken: [] };
  const refuse = (what: string): Error => {
    const test = expect.getState().currentTestName;
    const where = test === undefined ? 'in a hook or at the top of the file' : `in "${test}"`;
    const message =
      `A unit test ${what}, ${where}. Unit tests run in process: ` +
      'name the file <name>.integration.test.ts if it needs sockets or Redis, or put it in the project ' +
      'that fits it (docs/contributing.md).';
    state.taken.push(message);
    return new Error(message);
  };

  net.Server.prototype.listen = function refusedListen() {
    throw refuse('listened on a socket');
  };
  net.Socket.prototype.connect = function refusedConnect(target: unknown) {
    const where = typeof target === 'object' && target !== null ? JSON.stringify(target) : String(target);
    throw refuse(`opened a connection (${where.slice(0, 120)})`);
  };
  dgram.Socket.prototype.bind = function refusedBind() {
    throw refuse('bound a UDP socket');
  };

  const spawning = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
  const patched = childProcess as unknown as Record<(typeof spawning)[number], (...args: unknown[]) => unknown>;
  for (const name of spawning) {
    patched[name] = (command: unknown) => {
      throw refuse(`started a process (${name} ${String(command).slice(0, 120)})`);
    };
  }
  // `import { spawn } from 'node:child_process'` reads the patched functions from here on.
  syncBuiltinESMExports();
  return state;
}

function report(): void {
  const taken = guard.taken.splice(0);
  if (taken.length > 0) throw new Error(taken.join('\n'));
}

afterEach(report);
afterAll(report);
