// Figure 13: contacts from a list. 3,000 rows in mixed spellings imported into an empty account and
// then re-imported unchanged, with contacts.sync and with the per-row upsert loop a user writes by
// hand, on a limited plan (the budget sets the pace): requests sent (the figure that matters; 429s
// included) and wall time. The mock's key allows LIMIT requests per WINDOW_MS.
import { Variant2Client, type ContactSyncRow } from 'bizmsg';
import { startMockHttpServer, type MockHttpServer } from 'bizmsg/mock';
import { ratio, type BenchOptions, type Row } from './lib.js';

const LIMIT = 500;
const WINDOW_MS = 1000;
const CONCURRENCY = 8;
const KEY = 'bm_live_bench_contacts';

/** Row `i`: a German mobile number in one of four spellings, a name and a tag. */
function rows(n: number): ContactSyncRow[] {
  return Array.from({ length: n }, (_, i) => {
    const digits = `4915120${String(i).padStart(6, '0')}`;
    const phone = [`+${digits}`, digits, `00${digits}`, `+49 ${digits.slice(2, 5)} ${digits.slice(5)}`][i % 4]!;
    return { phone, name: `Customer ${i}`, tags: [`t${i % 5}`] };
  });
}

/** A client on `mock` counting the requests it sends (each attempt, 429s included). */
function countingClient(mock: MockHttpServer) {
  let requests = 0;
  const fetch: typeof globalThis.fetch = (input, init) => {
    requests += 1;
    return globalThis.fetch(input, init);
  };
  const client = new Variant2Client({ apiKey: KEY, baseUrl: mock.baseUrl, fetch, maxRetries: 20 });
  return { client, requests: () => requests };
}

/** The per-row loop: CONCURRENCY callers sharing the list, each row `contacts.upsert` (a search, then a create or an update). */
async function upsertLoop(client: Variant2Client, list: readonly ContactSyncRow[]): Promise<void> {
  const next = list.values();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let row = next.next(); !row.done; row = next.next())
        await client.contacts.upsert(row.value as Parameters<Variant2Client['contacts']['upsert']>[0]);
    }),
  );
}

async function sync(client: Variant2Client, list: readonly ContactSyncRow[], expected: 'created' | 'unchanged') {
  const report = await client.contacts.sync(list, { concurrency: CONCURRENCY });
  if (report[expected] !== list.length) throw new Error(`contacts.sync: ${JSON.stringify(report)}`);
}

/** Requests and seconds of `job`, run on a fresh client. */
async function measured(mock: MockHttpServer, job: (client: Variant2Client) => Promise<void>) {
  const { client, requests } = countingClient(mock);
  const started = performance.now();
  await job(client);
  return { requests: requests(), seconds: (performance.now() - started) / 1000 };
}

/** Figure 13. */
export async function measureContactsSync({ quick }: BenchOptions): Promise<Row[]> {
  const n = quick ? 600 : 3000;
  const list = rows(n);
  const mock = await startMockHttpServer({
    variant: 2,
    plans: { bench: { rateLimit: LIMIT, window: WINDOW_MS } },
    keys: [{ key: KEY, plan: 'bench' }],
    history: { requests: 100 },
  });
  try {
    const loopFirst = await measured(mock, (client) => upsertLoop(client, list));
    const loopAgain = await measured(mock, (client) => upsertLoop(client, list));
    if (mock.mock.store.contacts.length !== n) throw new Error('the upsert loop left the wrong number of contacts');
    mock.mock.reset();
    const syncFirst = await measured(mock, (client) => sync(client, list, 'created'));
    const syncAgain = await measured(mock, (client) => sync(client, list, 'unchanged'));
    if (mock.mock.store.contacts.length !== n) throw new Error('contacts.sync left the wrong number of contacts');
    const label = `${n.toLocaleString('en-US')} rows, limit ${LIMIT}/${WINDOW_MS / 1000} s, concurrency ${CONCURRENCY}`;
    const pages = Math.ceil(n / 100);
    const rowsOf = (what: string, s: typeof syncFirst, l: typeof loopFirst, most: number): Row[] => [
      {
        figure: '13',
        subject: `${label}: contacts.sync, ${what}, requests`,
        value: s.requests,
        unit: '',
        baseline: { name: 'per-row contacts.upsert loop', value: l.requests, ratio: ratio(s.requests, l.requests) },
        target: {
          text: `<= ${most} (the account's pages${what.startsWith('first') ? ' + one create per row' : ''})`,
          met: s.requests <= most,
        },
      },
      {
        figure: '13',
        subject: `${label}: contacts.sync, ${what}, wall time`,
        value: Math.round(s.seconds * 100) / 100,
        unit: 's',
        baseline: {
          name: 'per-row contacts.upsert loop',
          value: Math.round(l.seconds * 100) / 100,
          ratio: ratio(s.seconds, l.seconds),
        },
        note: 'the budget sets the pace',
      },
    ];
    return [
      ...rowsOf('first import (empty account)', syncFirst, loopFirst, n + 1),
      ...rowsOf('unchanged re-import', syncAgain, loopAgain, pages + 1),
    ];
  } finally {
    await mock.close();
  }
}
