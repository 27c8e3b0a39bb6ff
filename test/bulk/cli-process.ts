// `bizmsg bulk` (its source, through tsx) in a process of its own, as a user runs it: with no terminal
// (a CI log: stdout and stderr apart) or under a pseudo-terminal (`script`, stdout and stderr as one),
// killed if it has not exited by itself in time; and the emulator and files a test file's runs share.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { startMockHttpServer, type MockHttpServer, type MockServerOptions } from '../../src/mock/index.js';
import type { TemplateCatalog } from '../../src/templates/catalog.js';

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

/** Where the bin sends: the emulator's base URL and key. */
export interface CliTarget {
  readonly baseUrl: string;
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
  const env: NodeJS.ProcessEnv = { ...process.env, BIZMSG_API_KEY: target.apiKey, BIZMSG_BASE_URL: target.baseUrl };
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

/** What a test file's runs share: a Variant 1 emulator that knows `catalog`, and a temp folder with the catalog's file. */
export interface BulkEmulator {
  readonly server: MockHttpServer;
  /** The test file's temp folder (removed after its tests). */
  readonly dir: string;
  /** The catalog's file, for `--templates`. */
  readonly catalog: string;
  /** Writes `text` to the file `name` in the temp folder; its path. */
  file(name: string, text: string): string;
  /** `bulk --csv CSV --template order_update --language LANGUAGE --templates CATALOG` and `more`. */
  args(csv: string, more?: readonly string[], language?: string): string[];
  /** The number each send to the emulator was for, and its answer's status, in order. */
  sends(): Array<readonly [string, number | null]>;
}

/** Starts the emulator before the file's tests (it checks each send against `catalog`, as the service does) and stops it after. */
export function useBulkEmulator(
  catalog: TemplateCatalog,
  options: Pick<MockServerOptions, 'keys' | 'plans'> = {},
): BulkEmulator {
  const dir = mkdtempSync(join(tmpdir(), 'bizmsg-cli-'));
  const catalogFile = join(dir, 'templates.json');
  writeFileSync(catalogFile, JSON.stringify(catalog));
  let server: MockHttpServer | undefined;
  beforeAll(async () => {
    server = await startMockHttpServer({ variant: 1, templates: catalog, ...options });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get server() {
      if (server === undefined) throw new Error('the emulator starts in beforeAll');
      return server;
    },
    dir,
    catalog: catalogFile,
    file(name, text) {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
    sends: () =>
      server!.mock
        .requests()
        .filter((request) => request.method === 'POST')
        .map((request) => [(request.body as { to: string }).to, request.status] as const),
    args: (csv, more = [], language = 'en') => [
      'bulk',
      '--csv',
      csv,
      '--template',
      'order_update',
      '--language',
      language,
      '--templates',
      catalogFile,
      ...more,
    ],
  };
}
