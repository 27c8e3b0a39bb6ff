import { RateLimitExceededError, Variant2Client } from 'bizmsg';
import { createMockServer } from 'bizmsg/mock';
import type { BenchOptions, Row } from './lib.js';

const LIMIT = 50;
const WINDOW_MS = 2000;

interface Burst {
  served: number;
  limited: number;
  /** Requests the server accepted per window used, as a share of the limit. */
  share: number;
  seconds: number;
}

/** `sends` sends from `callers` concurrent callers against a key limited to LIMIT per WINDOW_MS. */
async function burst(sends: number, callers: number, pacing: boolean): Promise<Burst> {
  const mock = createMockServer({
    variant: 2,
    baseUrl: `https://pacing-${pacing}.bizmsg.test/api/v1`,
    plans: { bench: { rateLimit: LIMIT, window: WINDOW_MS } },
  });
  mock.listen();
  try {
    const statuses: Array<{ status: number; window: number }> = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      statuses.push({
        status: response.status,
        window: Math.floor(Date.parse(response.headers.get('date') ?? '') / WINDOW_MS),
      });
      return response;
    };
    const client = new Variant2Client({
      apiKey: mock.createKey({ plan: 'bench' }),
      baseUrl: mock.baseUrl,
      fetch,
      maxRetries: 20,
      ...(pacing ? {} : { rateLimit: false as const }),
    });
    // Start at a window boundary, so that every window used is a whole one.
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS - (Date.now() % WINDOW_MS) + 5));
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: callers }, async () => {
        while (next < sends) {
          next += 1;
          await client.messages
            .sendText({ to: '+4915112345678', messaging_account_id: 1, body: `#${next}` })
            .catch((error: unknown) => {
              if (!(error instanceof RateLimitExceededError)) throw error;
            });
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const served = statuses.filter((s) => s.status === 200);
    const windows = new Set(served.map((s) => s.window)).size;
    return {
      served: served.length,
      limited: statuses.length - served.length,
      share: served.length / (windows * LIMIT),
      seconds,
    };
  } finally {
    mock.close();
  }
}

/** Figure 4: pacing efficiency under a small window, with pacing on and off. */
export async function measurePacing({ quick }: BenchOptions): Promise<Row[]> {
  const sends = quick ? 100 : 500;
  const paced = await burst(sends, 20, true);
  const unpaced = await burst(sends, 20, false);
  const label = `${sends} sends, 20 callers, limit ${LIMIT}/${WINDOW_MS / 1000} s`;
  return [
    {
      figure: '4',
      subject: `${label}: 429 responses, pacing on`,
      value: paced.limited,
      unit: '',
      target: { text: '0', met: paced.limited === 0 },
      note: '',
    },
    {
      figure: '4',
      subject: `${label}: accepted per window used, pacing on`,
      value: Math.round(paced.share * 100) / 100,
      unit: 'x limit',
      target: { text: '>= 0.95', met: paced.share >= 0.95 },
    },
    {
      figure: '4',
      subject: `${label}: 429 responses, pacing off (retrying on Retry-After)`,
      value: unpaced.limited,
      unit: '',
      note: `accepted per window used: ${Math.round(unpaced.share * 100) / 100}x limit; ${unpaced.seconds.toFixed(1)} s vs ${paced.seconds.toFixed(1)} s paced`,
    },
  ];
}
