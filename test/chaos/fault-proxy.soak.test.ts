import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { FAULTS, OPERATION_HEADER, startFaultProxy, type Fault, type FaultProxy } from './fault-proxy.js';

// The harness is only as good as its faults: each one must do to the wire and to the mock
// exactly what the soak's invariants assume it does.

let server: MockHttpServer;
let proxy: FaultProxy;
const script = new Map<string, Fault>();

beforeAll(async () => {
  server = await startMockHttpServer({ variant: 2 });
  proxy = await startFaultProxy({
    upstream: server.baseUrl,
    choose: ({ op }) => script.get(op ?? '') ?? 'pass',
    slowMs: 400,
    echoCredentials: 'header',
  });
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});
beforeEach(() => server.mock.reset());

let opCount = 0;
/** Creates a contact through the proxy under `fault`; the outcome of fetch and the proxy's record. */
async function createThrough(fault: Fault) {
  const op = `op-${opCount++}`;
  script.set(op, fault);
  const name = `contact ${op}`;
  const outcome = await fetch(`${proxy.baseUrl}/contacts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', [OPERATION_HEADER]: op },
    body: JSON.stringify({ name, phone: '+4915112345678' }),
  })
    .then(async (response) => ({ status: response.status, headers: response.headers, text: await response.text() }))
    .catch((error: unknown) => ({ error }));
  await proxy.settled();
  return {
    outcome,
    stored: server.mock.store.contacts.filter((contact) => contact.name === name).length,
    record: proxy.records.find((record) => record.op === op)!,
  };
}

describe('fault proxy', () => {
  it('passes a request through unchanged and records it as seen and delivered', async () => {
    const { outcome, stored, record } = await createThrough('pass');
    expect(outcome).toMatchObject({ status: 201 });
    expect(JSON.parse((outcome as { text: string }).text)).toMatchObject({
      data: { name: expect.stringMatching(/^contact op-/) },
    });
    expect((outcome as { headers: Headers }).headers.get('x-ratelimit-limit')).toBe('2000');
    expect(stored).toBe(1);
    expect(record).toMatchObject({
      method: 'POST',
      path: '/api/v1/contacts',
      fault: 'pass',
      mockSaw: true,
      mockStatus: 201,
      delivered: true,
    });
  });

  it('drops a request before forwarding it: the mock never sees it', async () => {
    const { outcome, stored, record } = await createThrough('drop-before');
    expect(outcome).toEqual({ error: expect.any(TypeError) });
    expect(stored).toBe(0);
    expect(record).toMatchObject({ mockSaw: false, mockStatus: undefined, delivered: false });
  });

  it('drops the connection after the mock answered: processed but lost', async () => {
    const { outcome, stored, record } = await createThrough('drop-after');
    expect(outcome).toEqual({ error: expect.any(TypeError) });
    expect(stored).toBe(1);
    expect(record).toMatchObject({ mockSaw: true, mockStatus: 201, delivered: false });
  });

  it('answers an HTML 502 or 503 page itself, echoing the credentials where told', async () => {
    const { outcome, stored, record } = await createThrough('html-5xx');
    const { status, headers, text } = outcome as { status: number; headers: Headers; text: string };
    expect([502, 503]).toContain(status);
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(headers.get('x-debug-credentials')).toBe(`Bearer ${server.apiKey}`);
    expect(text).toMatch(/^<html>.*nginx.*<\/html>$/);
    expect(stored).toBe(0);
    expect(record).toMatchObject({ mockSaw: false, delivered: false });
  });

  it('replaces a 2xx answer by an HTML 200 page after the mock applied the request', async () => {
    const { outcome, stored, record } = await createThrough('html-200');
    expect(outcome).toMatchObject({ status: 200, text: expect.stringContaining('enable JavaScript') });
    expect(stored).toBe(1);
    expect(record).toMatchObject({ mockSaw: true, mockStatus: 201, delivered: false });
  });

  it("answers a gateway's 429: Retry-After 1, no rate-limit headers, not forwarded", async () => {
    const { outcome, stored, record } = await createThrough('gateway-429');
    const { status, headers } = outcome as { status: number; headers: Headers };
    expect(status).toBe(429);
    expect(headers.get('retry-after')).toBe('1');
    expect([...headers.keys()].filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);
    expect(stored).toBe(0);
    expect(record).toMatchObject({ mockSaw: false, delivered: false });
  });

  it('holds a slow answer for slowMs after the mock applied the request', async () => {
    const started = Date.now();
    const { outcome, stored, record } = await createThrough('slow');
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(outcome).toMatchObject({ status: 201 });
    expect(stored).toBe(1);
    expect(record).toMatchObject({ mockSaw: true, mockStatus: 201, delivered: true });
  });

  it('cuts an answer off halfway through its body after the mock applied the request', async () => {
    const { outcome, stored, record } = await createThrough('truncated');
    expect(outcome).toEqual({ error: expect.any(TypeError) });
    expect(stored).toBe(1);
    expect(record).toMatchObject({ mockSaw: true, mockStatus: 201, delivered: false });
  });

  it('draws the same faults for the same seed, close to the rates asked for', async () => {
    const rates = {
      'drop-before': 0.1,
      'drop-after': 0.1,
      'html-5xx': 0.1,
      'html-200': 0.1,
      'gateway-429': 0.1,
      slow: 0.1,
      truncated: 0.1,
    };
    const draws = async (seed: number) => {
      const seeded = await startFaultProxy({ upstream: server.baseUrl, seed, rates, slowMs: 1 });
      try {
        // Which request gets which fault depends on arrival order; the sequence of draws does not.
        for (let batch = 0; batch < 7; batch++) {
          await Promise.all(
            Array.from({ length: 30 }, () =>
              fetch(`${seeded.baseUrl}/nowhere`)
                .then((response) => response.arrayBuffer())
                .catch(() => undefined),
            ),
          );
        }
        await seeded.settled();
        return seeded.records.map((record) => record.fault);
      } finally {
        await seeded.close();
      }
    };
    const first = await draws(11);
    expect(await draws(11)).toEqual(first);
    expect(await draws(12)).not.toEqual(first);
    for (const fault of [...FAULTS, 'pass'] as const) {
      const share = first.filter((drawn) => drawn === fault).length / first.length;
      expect(share, fault).toBeGreaterThan(fault === 'pass' ? 0.2 : 0.04);
      expect(share, fault).toBeLessThan(fault === 'pass' ? 0.4 : 0.17);
    }
  });
});
