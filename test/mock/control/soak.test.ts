import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MockService } from '../../../src/mock/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The heap in use once garbage is collected, in MB. */
function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1_048_576;
}

describe('a long run', () => {
  it('keeps the newest requests of the journal only: 50,000 requests, memory bounded', async () => {
    const mock = new MockService({ variant: 1, plans: { pro: { rateLimit: 1_000_000 } } });
    const body = JSON.stringify({ automation_id: 'no-such-flow', data: { note: 'x'.repeat(2000) } });
    const send = (i: number) =>
      mock.answer(
        i % 2 === 0
          ? new Request(`${mock.baseUrl}/account/me`, { headers: { 'x-api-key': mock.apiKey } })
          : new Request(`${mock.baseUrl}/automations/trigger`, {
              method: 'POST',
              headers: { 'x-api-key': mock.apiKey, 'content-type': 'application/json' },
              body,
            }),
      );
    for (let i = 0; i < 10_000; i++) await send(i);
    const after10k = heapMb();
    for (let i = 10_000; i < 50_000; i++) await send(i);
    const after50k = heapMb();
    const journal = mock.requests();
    expect([journal.length, journal[0]!.id, journal.at(-1)!.id]).toEqual([1000, 49_001, 50_000]);
    expect(journal.at(-1)).toMatchObject({
      method: 'POST',
      path: '/automations/trigger',
      status: 404,
      code: 'RESOURCE_NOT_FOUND',
    });
    // Kept unbounded, 40,000 more requests with 2 KB bodies would hold some 80 MB more.
    expect(after50k - after10k).toBeLessThan(8);
    console.log(
      `journal soak: 50,000 requests (half with 2 KB bodies), 1,000 kept; heap ${after10k.toFixed(1)} MB after 10,000, ${after50k.toFixed(1)} MB after 50,000`,
    );
    mock.pause();
  }, 120_000);
});
