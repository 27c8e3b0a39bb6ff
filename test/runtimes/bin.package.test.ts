import { afterEach, describe, expect, it } from 'vitest';
import { portFreed, startMockProcess, type MockProcess } from '../helpers/mock-process.js';
import { consumer } from './helpers.js';

let started: MockProcess | undefined;
afterEach(() => {
  started?.child.kill('SIGKILL');
  started = undefined;
});

describe('npx bizmsg-mock in a project that installed the packed package', () => {
  it('serves the service and its control API, and stops (freeing its port) when npx gets SIGTERM', async () => {
    started = await startMockProcess([], { command: ['npx', 'bizmsg-mock'], cwd: consumer });
    const health = await fetch(started.url.replace('/api/v1', '/_bizmsg/health'));
    expect(((await health.json()) as { ok: boolean }).ok).toBe(true);
    const account = await fetch(`${started.url}/account/me`, {
      headers: { authorization: `Bearer ${started.apiKey}` },
    });
    expect(account.status).toBe(200);
    // npx does not pass SIGTERM on: the mock sees its parent go away, and stops.
    started.child.kill('SIGTERM');
    await portFreed(started.port, 10_000);
  }, 60_000);
});
