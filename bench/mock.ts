import { createMockServer, startMockHttpServer, type MockServer } from 'bizmsg/mock';
import { alternate, median, ratio, type BenchOptions, type Row } from './lib.js';
import { localServer } from './local-server.js';

/** A mock holding `count` contacts, without a rate limit in the way. */
function mockWith(count: number): MockServer {
  const contacts = Array.from({ length: count }, (_, i) => ({ name: `Contact ${i + 1}`, phone: `49151${String(i + 1).padStart(8, '0')}` }));
  return createMockServer({ variant: 2, baseUrl: `https://list-${count}.bizmsg.test/api/v1`, plans: { enterprise: { rateLimit: 1_000_000_000 } }, seed: { contacts } });
}

/** Median µs of `GET /contacts?page=…` answered in process (no msw, no sockets). */
async function listLatency(mock: MockServer, page: number, iterations: number): Promise<number> {
  const request = () => new Request(`${mock.baseUrl}/contacts?page=${page}&per_page=20`, { headers: { authorization: `Bearer ${mock.apiKey}` } });
  for (let i = 0; i < 50; i++) await (await mock.handle(request())).text();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await (await mock.handle(request())).text();
    samples.push((performance.now() - started) * 1000);
  }
  return median(samples);
}

/** Median µs of one `GET /account/me` through fetch, intercepted by msw (how test suites use it). */
async function mswLatency(iterations: number): Promise<number> {
  const mock = createMockServer({ variant: 2, baseUrl: 'https://msw.bizmsg.test/api/v1', plans: { enterprise: { rateLimit: 1_000_000_000 } } });
  mock.listen();
  try {
    const headers = { authorization: `Bearer ${mock.apiKey}` };
    for (let i = 0; i < 50; i++) await (await fetch(`${mock.baseUrl}/account/me`, { headers })).text();
    const samples: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const started = performance.now();
      await (await fetch(`${mock.baseUrl}/account/me`, { headers })).text();
      samples.push((performance.now() - started) * 1000);
    }
    return median(samples);
  } finally {
    mock.close();
  }
}

/** Requests per second from `connections` concurrent fetch loops over `ms`. */
async function throughput(url: string, headers: Record<string, string>, ms: number, connections = 8): Promise<number> {
  let count = 0;
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        await (await fetch(url, { headers })).text();
        count += 1;
      }
    }),
  );
  return (count / ms) * 1000;
}

/** Figure 7: the mock's list latency against store size, and its requests/s over HTTP. */
export async function measureMock({ quick }: BenchOptions): Promise<Row[]> {
  const small = mockWith(100);
  const large = mockWith(100_000);
  const iterations = quick ? 200 : 2000;
  const latency = await alternate(quick ? 1 : 5, {
    small: () => listLatency(small, 3, iterations),
    large: () => listLatency(large, 2500, iterations),
  });
  const viaMsw = await mswLatency(iterations);
  const http = await startMockHttpServer({ variant: 2, plans: { enterprise: { rateLimit: 1_000_000_000 } } });
  const floor = await localServer((_, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":{"id":1,"name":"Acme Test Account","email":"owner@acme.test","plan":"enterprise"}}');
  });
  try {
    const ms = quick ? 500 : 3000;
    const headers = { authorization: `Bearer ${http.apiKey}` };
    const rps = await alternate(quick ? 1 : 3, {
      mock: () => throughput(`${http.url}/account/me`, headers, ms),
      floor: () => throughput(`${floor.origin}/api/v1/account/me`, headers, ms),
    });
    return [
      { figure: '7', subject: 'mock list, 100 contacts (page 3 of 20)', value: Math.round(latency.small), unit: 'µs' },
      {
        figure: '7',
        subject: 'mock list, 100,000 contacts (page 2500 of 20)',
        value: Math.round(latency.large),
        unit: 'µs',
        baseline: { name: '100 contacts', value: Math.round(latency.small), ratio: ratio(latency.large, latency.small) },
        note: 'cost grows with the page, not the store',
      },
      { figure: '7', subject: 'mock in process through msw, GET /account/me (sequential)', value: Math.round(viaMsw), unit: 'µs' },
      {
        figure: '7',
        subject: 'mock over HTTP, GET /account/me, 8 connections',
        value: Math.round(rps.mock),
        unit: 'req/s',
        baseline: { name: 'bare node:http JSON server', value: Math.round(rps.floor), ratio: ratio(rps.mock, rps.floor) },
      },
    ];
  } finally {
    small.stop();
    large.stop();
    await http.close();
    await floor.close();
  }
}
