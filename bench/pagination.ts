import { Variant2Client } from 'bizmsg';
import { alternate, ratio, type BenchOptions, type Row } from './lib.js';
import { localServer } from './local-server.js';

const PAGES = 20;
const PER_PAGE = 10;
const LATENCY_MS = 50;

/** Figure 5: wall time to walk 20 pages with 50 ms server latency, sequential vs prefetch. */
export async function measurePagination({ quick }: BenchOptions): Promise<Row[]> {
  const server = await localServer((req, res) => {
    const page = Number(new URL(req.url!, 'http://x').searchParams.get('page') ?? '1');
    const data = Array.from({ length: PER_PAGE }, (_, i) => ({
      id: (page - 1) * PER_PAGE + i + 1,
      name: 'c',
      phone: '4915100000000',
    }));
    const body = JSON.stringify({
      data,
      meta: { current_page: page, per_page: PER_PAGE, total: PAGES * PER_PAGE, last_page: PAGES },
    });
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    }, LATENCY_MS);
  });
  try {
    const client = new Variant2Client({ apiKey: 'sk_bench', baseUrl: `${server.origin}/api/v1` });
    const walk = (prefetch: number) => async () => {
      const started = performance.now();
      const items = await client.contacts.list({ per_page: PER_PAGE }, { prefetch }).toArray();
      if (items.length !== PAGES * PER_PAGE) throw new Error(`walked ${items.length} items`);
      return performance.now() - started;
    };
    const ms = await alternate(quick ? 1 : 5, { sequential: walk(0), prefetch4: walk(4) });
    return [
      {
        figure: '5',
        subject: `${PAGES} pages, ${LATENCY_MS} ms latency: sequential`,
        value: Math.round(ms.sequential),
        unit: 'ms',
      },
      {
        figure: '5',
        subject: `${PAGES} pages, ${LATENCY_MS} ms latency: prefetch 4`,
        value: Math.round(ms.prefetch4),
        unit: 'ms',
        baseline: { name: 'sequential', value: Math.round(ms.sequential), ratio: ratio(ms.prefetch4, ms.sequential) },
        target: { text: '<= 0.35x sequential', met: ms.prefetch4 <= 0.35 * ms.sequential },
      },
    ];
  } finally {
    await server.close();
  }
}
