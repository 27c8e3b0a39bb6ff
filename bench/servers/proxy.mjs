// The built bizmsg-mock proxy (what `bizmsg-mock proxy` runs) in front of the upstream given as
// the first argument; prints {"url"} as one JSON line once listening. Run by bench/proxy.ts.
import { startMockProxy } from '../../dist/mock/index.js';

const proxy = await startMockProxy({ target: process.argv[2], variant: 2 });
console.log(JSON.stringify({ url: proxy.baseUrl }));
process.once('SIGTERM', () => void proxy.close().then(() => process.exit(0)));
