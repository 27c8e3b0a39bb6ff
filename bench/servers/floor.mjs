// The floor: a bare node:http server answering every request with the bytes the mock sends for
// GET /account/me (the same body and headers, rate-limit ones included), so that the two differ
// only in the work done per request. Prints {"url"} as one JSON line once listening.
import { createServer } from 'node:http';
import { floorAnswer } from '../floor-answer.mjs';

const server = createServer(floorAnswer);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () =>
  console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/api/v1` })),
);
process.once('SIGTERM', () => server.close(() => process.exit(0)));
