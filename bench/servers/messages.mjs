// A bare node:http service of POST /api/v1/messages/send with no rate limit: each send answered at
// once with a Variant 2 message, so that a bulk send and a plain loop differ only in their own work.
// Prints {"url"} as one JSON line once listening.
import { createServer } from 'node:http';

let next = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    next += 1;
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(`{"data":{"id":"msg_${next}","status":"sent","direction":"outbound"}}`);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () =>
  console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/api/v1` })),
);
process.once('SIGTERM', () => server.close(() => process.exit(0)));
