import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import type { ContactSyncReport } from '../../src/index.js';
import { digitsOf, useSyncEmulator } from './fixtures.js';

// Two processes syncing overlapping lists against one emulator at once. The forwarder holds every
// write until both have read the account (empty), so both create the numbers they share: the
// emulator refuses the second contact of a number, and the loser updates the winner's contact.
// Still one contact per number, each created once.

const SYNCER = fileURLToPath(new URL('./workers/syncer.ts', import.meta.url));
let answeredReads = 0;
let bothRead: () => void;
const reads = new Promise<void>((resolve) => (bothRead = resolve));
const emulator = useSyncEmulator(
  2,
  {},
  {
    before: (request) => (request.startsWith('POST') ? reads : undefined),
    after: (request) => {
      if (request === 'GET /contacts' && ++answeredReads === 2) bothRead();
    },
  },
);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

function syncer(args: object): Promise<ContactSyncReport> {
  const child = spawn(process.execPath, ['--import', 'tsx', SYNCER, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as ContactSyncReport) : reject(new Error(`syncer exited ${code}: ${err}`)),
    ),
  );
}

it('two processes syncing overlapping lists at once end with one contact per number', { timeout: 60_000 }, async () => {
  const target = { baseUrl: emulator.forwarder.baseUrl, apiKey: emulator.server.apiKey, startAt: Date.now() + 4000 };
  // Numbers 0 to 399 and 200 to 599: 200 numbers in both, each list starting with them.
  const [a, b] = await Promise.all([
    syncer({ ...target, numbers: [...range(200, 400), ...range(0, 200)], name: 'A' }),
    syncer({ ...target, numbers: range(200, 600), name: 'B' }),
  ]);
  const stored = emulator.contactsByNumber();
  expect(stored.size).toBe(600);
  for (const report of [a, b]) {
    expect(report.total).toBe(400);
    expect(report.failed).toBe(0);
    expect(report.created + report.updated + report.unchanged).toBe(400);
  }
  // Each number was created once, by one of them; each shared number's second create was refused
  // and became an update (each process read the account once more to settle them).
  expect(a.created + b.created).toBe(600);
  expect(a.updated + b.updated).toBe(200);
  expect(emulator.forwarder.count('POST /contacts')).toBe(800);
  expect(emulator.forwarder.count(/^PUT /)).toBe(200);
  // One page each of the empty account, then each read the account (at most 600 contacts) once more.
  expect(emulator.forwarder.count('GET /contacts')).toBeLessThanOrEqual(2 + 6 + 6);
  for (let i = 0; i < 600; i++) expect(['A', 'B']).toContain(stored.get(digitsOf(i))!.name);
  expect([...stored.values()].filter((c) => c.name === 'A').length).toBeGreaterThanOrEqual(200);
  expect([...stored.values()].filter((c) => c.name === 'B').length).toBeGreaterThanOrEqual(200);
});
