import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendBulk, type BulkResult } from '../../src/bulk/index.js';
import { Variant2Client } from '../../src/index.js';
import { startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';

// A bulk send through the chaos proxy (dropped connections before and after the mock, gateway
// pages, 429s of its own, slow and cut answers): every recipient one outcome, none sent twice,
// `sent` only for what the mock took, `failed` only for what it did not.

const RECIPIENTS = 200;
let server: MockHttpServer;
let proxy: FaultProxy;

beforeAll(async () => {
  server = await startMockHttpServer({
    variant: 2,
    plans: { enterprise: { rateLimit: 1_000_000, window: 86_400_000 } },
    history: { requests: 5000 },
  });
  proxy = await startFaultProxy({
    upstream: server.baseUrl,
    seed: 26,
    slowMs: 1500,
    rates: {
      'drop-before': 0.05,
      'drop-after': 0.05,
      'html-5xx': 0.05,
      'html-200': 0.05,
      'gateway-429': 0.05,
      slow: 0.03,
      truncated: 0.05,
    },
  });
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});

it('keeps every recipient to one outcome and no duplicate behind a faulty proxy', { timeout: 60_000 }, async () => {
  const phones = Array.from({ length: RECIPIENTS }, (_, i) => `+4915300${String(100_000 + i)}`);
  const client = new Variant2Client({ apiKey: server.apiKey, baseUrl: proxy.baseUrl, timeout: 1000, maxRetries: 5 });
  const run = sendBulk(client, {
    id: 'chaos',
    recipients: phones,
    concurrency: 8,
    message: (to) => ({ to, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } }),
  });
  const results: BulkResult[] = [];
  for await (const result of run.results()) results.push(result);
  const report = await run;
  await proxy.settled();

  const taken = new Map<string, number>();
  for (const entry of server.mock.requests({ method: 'POST' })) {
    if (entry.status !== 200 || !entry.path?.endsWith('/messages/send')) continue;
    const to = (entry.body as { to: string }).to;
    taken.set(to, (taken.get(to) ?? 0) + 1);
  }
  expect([...taken.values()].filter((n) => n > 1)).toEqual([]);
  expect(report.total).toBe(RECIPIENTS);
  expect(report.sent + report.failed + report.unknown).toBe(RECIPIENTS);
  expect(new Set(results.map((r) => r.key)).size).toBe(RECIPIENTS);
  for (const result of results) {
    if (result.status === 'sent') expect(taken.get(result.to), result.to).toBe(1);
    if (result.status === 'failed') expect(taken.get(result.to), result.to).toBeUndefined();
  }
  // The faults hit about a third of the requests: some ended unknown, most were sent.
  expect(report.unknown).toBeGreaterThan(0);
  expect(report.sent).toBeGreaterThan(RECIPIENTS / 2);
});
