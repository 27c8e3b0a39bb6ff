// The built mock over HTTP (what bizmsg-mock runs), without a rate limit in the way; prints
// {"url", "apiKey"} as one JSON line once listening. Run as a child process by bench/mock.ts.
// Arguments: the variant (default 2), and `no-journal` to keep no request journal.
import { startMockHttpServer } from '../../dist/mock/index.js';

const variant = Number(process.argv[2] ?? 2);
const server = await startMockHttpServer({
  variant,
  plans: { [variant === 1 ? 'pro' : 'enterprise']: { rateLimit: 1_000_000_000 } },
  ...(process.argv[3] === 'no-journal' ? { history: { requests: 0 } } : {}),
});
console.log(JSON.stringify({ url: server.baseUrl, apiKey: server.apiKey }));
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
