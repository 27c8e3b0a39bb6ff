// `bizmsg bulk` (its source, through tsx) in a process of its own, as a user runs it: with no terminal
// (a CI log: stdout and stderr apart) or under a pseudo-terminal (`script`, stdout and stderr as one),
// killed if it has not exited by itself in time.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The bin's source. */
export const CLI = fileURLToPath(new URL('../../src/bulk/cli/main.ts', import.meta.url));

/** How a run of the bin ended. */
export interface CliRun {
  /** Its exit code; null when it was killed. */
  readonly code: number | null;
  readonly stdout: string;
  /** stderr; under a terminal, empty (everything is in stdout). */
  readonly stderr: string;
  /** True when it had not exited by itself within the time given. */
  readonly killed: boolean;
}

/** Where the bin sends: the emulator's URL and key. */
export interface CliTarget {
  readonly url: string;
  readonly apiKey: string;
}

/** Options of a run. */
export interface CliOptions {
  /** Run it under a pseudo-terminal (`script -qec CMD /dev/null`). */
  readonly tty?: boolean;
  /** Kill it (SIGKILL) if it has not exited within this many ms. */
  readonly killAfterMs?: number;
}

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/** Runs `bizmsg ...args` against `target`; resolves once it exited (or was killed). */
export function bizmsg(target: CliTarget, args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const command = [process.execPath, '--import', 'tsx', CLI, ...args];
  const env: NodeJS.ProcessEnv = { ...process.env, BIZMSG_API_KEY: target.apiKey, BIZMSG_BASE_URL: target.url };
  delete env.BIZMSG_LOG;
  const child =
    options.tty === true
      ? spawn('script', ['-qec', command.map(quote).join(' '), '/dev/null'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(command[0]!, command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let killed = false;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer =
    options.killAfterMs === undefined
      ? undefined
      : setTimeout(() => {
          killed = true;
          child.kill('SIGKILL');
        }, options.killAfterMs);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, killed });
    }),
  );
}
